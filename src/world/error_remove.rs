//! `MPI_Remove_error_class`, `MPI_Remove_error_code`, `MPI_Remove_error_string` (MPI 4.1
//! §9.5): only what `MPI_Add_error_*` added can be removed, a class only once no code of it
//! is left, and a code or class only once its string is removed. Removed numbers are not handed out again (`MPI_LASTUSEDCODE` does not go back).

use crate::consts::*;
use crate::error::{Error, Result};
use crate::world::runtime::Runtime;

fn not_user(what: &str, v: i32) -> Error {
    Error::invalid(
        MPI_ERR_ARG,
        format!("{v} is not an error {what} added by MPI_Add_error_{what}"),
    )
}

impl Runtime {
    /// `MPI_Remove_error_class`.
    pub fn remove_error_class(&self, class: i32) -> Result<()> {
        let mut st = self.active()?;
        if st.errors.user_codes.get(&class) != Some(&class) {
            return Err(not_user("class", class));
        }
        if let Some((code, _)) = st
            .errors
            .user_codes
            .iter()
            .find(|(&code, &c)| c == class && code != class)
        {
            return Err(Error::invalid(
                MPI_ERR_ARG,
                format!("error class {class} still has the error code {code}"),
            ));
        }
        if st.errors.strings.contains_key(&class) {
            return Err(Error::invalid(
                MPI_ERR_ARG,
                format!("error class {class} still has a string (MPI_Remove_error_string first)"),
            ));
        }
        st.errors.user_codes.remove(&class);
        Ok(())
    }

    /// `MPI_Remove_error_code`.
    pub fn remove_error_code(&self, code: i32) -> Result<()> {
        let mut st = self.active()?;
        match st.errors.user_codes.get(&code) {
            Some(&c) if c != code => {}
            _ => return Err(not_user("code", code)),
        }
        if st.errors.strings.contains_key(&code) {
            return Err(Error::invalid(
                MPI_ERR_ARG,
                format!("error code {code} still has a string (MPI_Remove_error_string first)"),
            ));
        }
        st.errors.user_codes.remove(&code);
        Ok(())
    }

    /// `MPI_Remove_error_string`: the string set by `MPI_Add_error_string` goes.
    pub fn remove_error_string(&self, code: i32) -> Result<()> {
        let mut st = self.active()?;
        if st.errors.strings.remove(&code).is_none() {
            return Err(Error::invalid(
                MPI_ERR_ARG,
                format!("error code {code} has no string added by MPI_Add_error_string"),
            ));
        }
        Ok(())
    }
}
