//! Rules played through stacked decks.
