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

/// Run named `checks` of a result (each a name and a function of `ctx`,
/// what the checks read) in order; the first failure is returned with the
/// name of its check after the problem (`by_n[5].graphs is 7, … (check
/// counts)`), so a refusal says which rule it broke.
pub fn run_checks<C, F>(checks: &[(&'static str, F)], ctx: &C) -> Result<(), ValidateError>
where
    F: Fn(&C) -> Result<(), ValidateError>,
{
    for (name, check) in checks {
        check(ctx).map_err(|mut e| {
            e.problem.push_str(&format!(" (check {name})"));
            e
        })?;
    }
    Ok(())
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

    #[test]
    fn a_failed_check_names_itself_and_stops_the_rest() {
        fn small(x: &u32) -> Result<(), ValidateError> {
            match *x < 10 {
                true => Ok(()),
                false => Err(format!("x is {x}, not below 10").into()),
            }
        }
        fn even(x: &u32) -> Result<(), ValidateError> {
            match x % 2 {
                0 => Ok(()),
                _ => Err(format!("x is {x}, not even").into()),
            }
        }
        type Check = fn(&u32) -> Result<(), ValidateError>;
        let checks: &[(&str, Check)] = &[("small", small), ("even", even)];
        assert_eq!(run_checks(checks, &4), Ok(()));
        let e = run_checks(checks, &5).unwrap_err();
        assert_eq!(
            (e.field.as_str(), e.to_string().as_str()),
            ("x", "x is 5, not even (check even)")
        );
        let e = run_checks(checks, &11).unwrap_err();
        assert_eq!(e.to_string(), "x is 11, not below 10 (check small)");
    }
}
