//! Game counts as people write them: `1000`, `250K`, `10M`, `1B`, `1e6`, `2.5M`, `10_000`.

/// Parses a positive whole count; the error says what would be right.
pub fn parse_count(text: &str) -> Result<u64, String> {
    let bad = || {
        format!(
            "'{text}' is not a positive game count: write e.g. 1000, 250K, 10M, 1B, 1e6 or 2.5M"
        )
    };
    let clean: String = text
        .trim()
        .chars()
        .filter(|c| *c != '_' && *c != ',')
        .collect();
    let (number, scale) = match clean.chars().last().map(|c| c.to_ascii_uppercase()) {
        Some('K') => (&clean[..clean.len() - 1], 1e3),
        Some('M') => (&clean[..clean.len() - 1], 1e6),
        Some('B' | 'G') => (&clean[..clean.len() - 1], 1e9),
        _ => (clean.as_str(), 1.0),
    };
    if let Ok(n) = number.parse::<u64>()
        && scale == 1.0
    {
        return if n > 0 { Ok(n) } else { Err(bad()) };
    }
    let value = number.parse::<f64>().map_err(|_| bad())? * scale;
    if !value.is_finite() || value < 1.0 || value.fract() != 0.0 || value > 1e15 {
        return Err(bad());
    }
    Ok(value as u64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::html::command::count;

    #[test]
    fn accepts_the_usual_spellings() {
        for (text, n) in [
            ("10M", 10_000_000),
            ("250K", 250_000),
            ("250k", 250_000),
            ("1e6", 1_000_000),
            ("1B", 1_000_000_000),
            ("2.5M", 2_500_000),
            ("10_000", 10_000),
            ("1,000", 1_000),
            ("7", 7),
        ] {
            assert_eq!(parse_count(text), Ok(n), "{text}");
        }
    }

    #[test]
    fn rejects_zero_fractions_and_words() {
        for text in [
            "0", "abc", "", "-5", "1.5", "0.5", "1e-3", "inf", "NaN", "5X",
        ] {
            let err = parse_count(text).unwrap_err();
            assert!(err.contains("positive game count"), "{text}: {err}");
        }
    }

    #[test]
    fn counts_a_report_writes_read_back_as_the_same_number() {
        for n in [
            1,
            999,
            1_000,
            1_500,
            250_000,
            10_000_000,
            3_000_000_000,
            1_234_567,
        ] {
            assert_eq!(parse_count(&count(n)), Ok(n), "{n} as {}", count(n));
        }
        assert_eq!(count(10_000_000), "10M");
        assert_eq!(count(1_234_567), "1234567");
    }
}
