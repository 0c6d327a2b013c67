//! [`ValidateError`]: why [`Kind::validate`](super::Kind::validate) or
//! [`Kind::recount`](super::Kind::recount) refuses a shard's result.

use std::fmt::Display;

/// A shard's result that is not what its shard can have produced: the field
/// of the result it names (`by_n[3].graphs`, `myopic.positions`, `shards`)
/// and what is wrong with it. Displays as one line, `FIELD…` then the
/// problem (`by_n[3].graphs is 7, but …`, `col: 1 positions, but …`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{field}{problem}")]
pub struct ValidateError {
    /// The field the message names (its first word).
    pub field: String,
    /// The rest of the line, from the separator after the field on.
    pub problem: String,
}

impl ValidateError {
    /// `FIELD: problem`.
    pub fn new(field: impl Into<String>, problem: impl Display) -> Self {
        ValidateError {
            field: field.into(),
            problem: format!(": {problem}"),
        }
    }
}

/// A one-line message that begins with the field it names (`x.y is 3, not
/// 4`, `x.y: …`): the field is the text before the first space or colon.
impl From<String> for ValidateError {
    fn from(message: String) -> Self {
        let at = message.find([' ', ':']).unwrap_or(message.len());
        let problem = message[at..].to_string();
        let mut field = message;
        field.truncate(at);
        ValidateError { field, problem }
    }
}

/// As [`From<String>`](#impl-From<String>-for-ValidateError).
impl From<&str> for ValidateError {
    fn from(message: &str) -> Self {
        message.to_string().into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_field_is_the_first_word_and_the_text_stays() {
        for (msg, field) in [
            ("shards is 3, not 1", "shards"),
            ("col: 1 positions, but this is a myopic shard", "col"),
            ("by_n[3].graphs is 7", "by_n[3].graphs"),
            ("bare", "bare"),
        ] {
            let e = ValidateError::from(msg.to_string());
            assert_eq!(e.field, field);
            assert_eq!(e.to_string(), msg);
        }
        let e = ValidateError::new("params.max_n", "13 is above 12");
        assert_eq!(e.to_string(), "params.max_n: 13 is above 12");
    }
}
