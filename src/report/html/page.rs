//! The page: sections of blocks (headlines, figures, tables, notes) that the kinds fill in, and
//! the template that lays them out as one HTML file.

use askama::Template;

use crate::error::{Result, SimError};

use super::facts::Facts;

/// One result on the page.
#[derive(Clone, Debug, PartialEq)]
pub struct Section {
    /// The kind that made it (`run`, `compare`, ...), for the page's classes.
    pub kind: &'static str,
    /// The anchor the contents link to; set by [`render`].
    pub id: String,
    /// The heading.
    pub title: String,
    /// The answer in words, shown first: sentences built from the figures the section shows
    /// (see `kinds::verdict`).
    pub verdict: Vec<String>,
    /// What produced it.
    pub facts: Facts,
    /// Lines about time and speed, which differ from run to run (the report marks them).
    pub timing: Vec<String>,
    /// The content, top to bottom.
    pub blocks: Vec<Block>,
}

impl Section {
    /// A section of kind `kind` titled `title` with `facts` and no content yet.
    pub fn new(kind: &'static str, title: String, facts: Facts) -> Self {
        Self {
            kind,
            id: String::new(),
            title,
            verdict: Vec::new(),
            facts,
            timing: Vec::new(),
            blocks: Vec::new(),
        }
    }
}

/// A piece of a section.
#[derive(Clone, Debug, PartialEq)]
pub enum Block {
    /// The figure a reader looks for first, large.
    Headline(Headline),
    /// An SVG figure with its caption and, folded, the numbers it draws.
    Figure(Figure),
    /// A table.
    Table(DataTable),
    /// A paragraph.
    Note(Note),
}

/// A headline: a label and a value with its interval.
#[derive(Clone, Debug, PartialEq)]
pub struct Headline {
    /// What the value is.
    pub label: String,
    /// The value.
    pub value: Cell,
    /// Its interval, in words.
    pub interval: String,
}

/// A figure.
#[derive(Clone, Debug, PartialEq)]
pub struct Figure {
    /// Its id in the page (the browser tests look figures up by it).
    pub id: String,
    /// The caption.
    pub caption: String,
    /// The inline SVG.
    pub svg: String,
    /// The series' names and colours, if it has several.
    pub legend: Vec<Swatch>,
    /// The numbers drawn, shown folded under the figure.
    pub data: Option<DataTable>,
    /// True if it shows times, which differ from run to run.
    pub timing: bool,
}

impl Figure {
    /// The figure `id` drawn as `svg`, with `caption`; no legend, no numbers under it.
    pub fn new(id: impl Into<String>, caption: String, svg: String) -> Self {
        Self {
            id: id.into(),
            caption,
            svg,
            legend: Vec::new(),
            data: None,
            timing: false,
        }
    }

    /// The same figure with `data`, the numbers it draws, folded under it.
    pub fn with_data(mut self, data: DataTable) -> Self {
        self.data = Some(data);
        self
    }

    /// The same figure with a legend.
    pub fn with_legend(mut self, legend: Vec<Swatch>) -> Self {
        self.legend = legend;
        self
    }

    /// The same figure, marked as showing times if `timing`.
    pub fn timed(mut self, timing: bool) -> Self {
        self.timing = timing;
        self
    }
}

/// A legend entry.
#[derive(Clone, Debug, PartialEq)]
pub struct Swatch {
    /// The series.
    pub name: String,
    /// Its colour, as CSS.
    pub colour: String,
}

/// A paragraph of text.
#[derive(Clone, Debug, PartialEq)]
pub struct Note {
    /// The text.
    pub text: String,
}

/// A table. Cells that show a number from a file carry it exactly (`data-col`, `data-value`),
/// so tests can check the page against the file.
#[derive(Clone, Debug, PartialEq)]
pub struct DataTable {
    /// Its id in the page.
    pub id: String,
    /// The caption.
    pub caption: String,
    /// Extra classes (`strategy` for a strategy chart).
    pub class: String,
    /// The file whose rows the table's rows show (`summary.parquet`): each row's key is its row
    /// number there, and each cell's `col` a column of it. Empty for other tables.
    pub source: String,
    /// The header cells.
    pub headers: Vec<String>,
    /// The rows.
    pub rows: Vec<Row>,
}

impl DataTable {
    /// An empty table with `id`, `caption` and `headers`.
    pub fn new(id: impl Into<String>, caption: impl Into<String>, headers: &[&str]) -> Self {
        Self {
            id: id.into(),
            caption: caption.into(),
            class: String::new(),
            source: String::new(),
            headers: headers.iter().map(|h| h.to_string()).collect(),
            rows: Vec::new(),
        }
    }

    /// The same table, its rows showing rows of the file `source`.
    pub fn from_file(mut self, source: &str) -> Self {
        self.source = source.to_string();
        self
    }

    /// The class of header `i`: its column's, taken from the first row (text set left, numbers
    /// right). By reference, as the template's loop index is.
    pub fn header_class(&self, i: &usize) -> &str {
        self.rows
            .first()
            .and_then(|r| r.cells.get(*i))
            .and_then(|c| c.class.as_deref())
            .unwrap_or("")
    }

    /// Header `i` as shown: a break allowed after each `_` and `.` of a column or rule name
    /// (a zero-width space), so that a long name wraps in its column instead of widening the
    /// table. By reference, as the template's loop index is.
    pub fn header_text(&self, i: &usize) -> String {
        self.headers.get(*i).map_or(String::new(), |h| {
            h.replace('_', "_\u{200b}").replace('.', ".\u{200b}")
        })
    }

    /// Adds a row keyed `key` (the row of the file it shows, for the tests).
    pub fn push(&mut self, key: impl Into<String>, cells: Vec<Cell>) {
        self.rows.push(Row {
            key: key.into(),
            cells,
            timing: false,
        });
    }

    /// Adds a row as [`DataTable::push`] does, marked as showing times if `timing`.
    pub fn push_timed(&mut self, key: impl Into<String>, cells: Vec<Cell>, timing: bool) {
        self.push(key, cells);
        if let Some(row) = self.rows.last_mut() {
            row.timing = timing;
        }
    }
}

/// A table row.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// What it shows (a row number of the file, a metric, ...).
    pub key: String,
    /// The cells.
    pub cells: Vec<Cell>,
    /// True if it shows times, which differ from run to run.
    pub timing: bool,
}

/// A table cell.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Cell {
    /// What the reader sees.
    pub text: String,
    /// The file's column it shows, if any.
    pub col: Option<String>,
    /// The exact value of that column (shortest text that reads back to the same number).
    pub value: Option<String>,
    /// A class (the strategy chart's `bank`, `push`).
    pub class: Option<String>,
    /// A tooltip.
    pub title: Option<String>,
}

impl Cell {
    /// A cell of text (set left, where numbers are set right).
    pub fn text(text: impl Into<String>) -> Self {
        Self {
            text: text.into(),
            class: Some("text".to_string()),
            ..Self::default()
        }
    }

    /// A cell showing `value` of column `col` as `text`.
    pub fn number(col: &str, value: impl ToString, text: impl Into<String>) -> Self {
        Self {
            text: text.into(),
            col: Some(col.to_string()),
            value: Some(value.to_string()),
            ..Self::default()
        }
    }

    /// The same cell with class `class`.
    pub fn with_class(mut self, class: &str) -> Self {
        self.class = Some(class.to_string());
        self
    }

    /// The same cell with tooltip `title`.
    pub fn with_title(mut self, title: impl Into<String>) -> Self {
        self.title = Some(title.into());
        self
    }
}

/// The page: `templates/report/page.html` (and its style sheet), checked and compiled with
/// the crate.
#[derive(Template)]
#[template(path = "report/page.html")]
struct Page<'a> {
    title: String,
    version: &'static str,
    style: &'static str,
    sections: &'a [Section],
}

/// The page's style sheet.
const STYLE: &str = include_str!("../../../templates/report/style.css");

/// The HTML page of `sections`: each section's anchor is its kind and number (`run-1`), and
/// the ids of its figures and tables (which the kinds give within the section) start with it.
pub fn render(mut sections: Vec<Section>) -> Result<String> {
    for (i, section) in sections.iter_mut().enumerate() {
        section.id = format!("{}-{}", section.kind, i + 1);
        let within = |id: &mut String| *id = format!("{}-{id}", section.id);
        for block in &mut section.blocks {
            match block {
                Block::Figure(f) => {
                    within(&mut f.id);
                    if let Some(d) = &mut f.data {
                        within(&mut d.id);
                    }
                }
                Block::Table(t) => within(&mut t.id),
                Block::Headline(_) | Block::Note(_) => {}
            }
        }
    }
    let title = match sections.as_slice() {
        [one] => format!("{} | sim report", one.title),
        many => format!("{} results | sim report", many.len()),
    };
    let page = Page {
        title,
        version: env!("CARGO_PKG_VERSION"),
        style: STYLE,
        sections: &sections,
    };
    page.render()
        .map_err(|e| SimError::input(format!("cannot lay out the report: {e}")))
}
