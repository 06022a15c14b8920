//! File views (MPI 4.1 §14.3): a displacement, an etype and a filetype tiled from the
//! displacement. A view maps the stream of data bytes a process sees (offset `o` in etypes is
//! data byte `o * etype size`) to byte positions in the file, through the filetype's typemap.

use crate::consts::*;
use crate::error::{Error, Result};
use crate::world::datatype::layout::Layout;
use crate::world::handle::Handle;

/// What a file's view is, with the filetype's runs at hand.
#[derive(Debug, Clone)]
pub struct View {
    pub disp: i64,
    /// The view's own copies of the datatypes (predefined ones as they are): the program may
    /// free its handles after `MPI_File_set_view` (MPI 4.1 §14.3).
    pub etype: Handle,
    pub filetype: Handle,
    pub datarep: String,
    pub etype_size: i64,
    /// The data runs `(offset, len)` of one filetype instance, in typemap order.
    runs: Vec<(i64, i64)>,
    /// Data bytes before each run of an instance.
    before: Vec<i64>,
    /// Data bytes in one instance.
    size: i64,
    extent: i64,
}

impl View {
    /// The view of a newly opened file: displacement 0, etype and filetype `MPI_BYTE`, "native".
    pub fn default_view() -> View {
        View {
            disp: 0,
            etype: Handle(MPI_BYTE),
            filetype: Handle(MPI_BYTE),
            datarep: "native".to_owned(),
            etype_size: 1,
            runs: vec![(0, 1)],
            before: vec![0],
            size: 1,
            extent: 1,
        }
    }

    /// A view from its datatypes' layouts. The filetype's displacements must be nonnegative
    /// and nondecreasing, and its data a whole number of etypes (MPI 4.1 §14.3).
    pub fn new(
        disp: i64,
        etype: (Handle, &Layout),
        filetype: (Handle, &Layout),
        datarep: &str,
    ) -> Result<View> {
        let (esize, fsize) = (etype.1.size, filetype.1.size);
        if esize <= 0 {
            return Err(Error::invalid(MPI_ERR_TYPE, "the etype holds no data"));
        }
        if fsize % esize != 0 || fsize == 0 {
            return Err(Error::invalid(
                MPI_ERR_TYPE,
                format!(
                    "the filetype ({fsize} bytes of data) is not made of etypes of {esize} bytes"
                ),
            ));
        }
        let runs = filetype.1.blocks(1);
        let mut end = i64::MIN;
        let mut before = Vec::with_capacity(runs.len());
        let mut total = 0;
        for &(off, len) in &runs {
            if off < 0 || off < end {
                return Err(Error::invalid(
                    MPI_ERR_TYPE,
                    "the filetype's displacements must be nonnegative and nondecreasing",
                ));
            }
            end = off + len;
            before.push(total);
            total += len;
        }
        let extent = filetype.1.extent();
        if extent <= 0 {
            return Err(Error::invalid(
                MPI_ERR_TYPE,
                "the filetype's extent must be positive",
            ));
        }
        // Tiled copies must not step back either: the next copy's first byte is not before
        // this one's last.
        if end > extent + runs[0].0 {
            return Err(Error::invalid(
                MPI_ERR_TYPE,
                "the filetype's data reaches past its extent into the next copy's",
            ));
        }
        Ok(View {
            disp,
            etype: etype.0,
            filetype: filetype.0,
            datarep: datarep.to_owned(),
            etype_size: esize,
            runs,
            before,
            size: total,
            extent,
        })
    }

    /// The file byte of data byte `b` of the view.
    pub fn file_byte(&self, b: i64) -> i64 {
        let (inst, within) = (b / self.size, b % self.size);
        let i = self.before.partition_point(|&x| x <= within) - 1;
        self.disp + inst * self.extent + self.runs[i].0 + (within - self.before[i])
    }

    /// The file byte of view offset `off` (in etypes).
    pub fn file_byte_at(&self, off: i64) -> i64 {
        self.file_byte(off * self.etype_size)
    }

    /// The contiguous file pieces `(file offset, len)` of data bytes `start .. start + n`,
    /// merged where they touch.
    pub fn pieces(&self, start: i64, n: i64) -> Vec<(i64, i64)> {
        let mut out: Vec<(i64, i64)> = Vec::new();
        let mut b = start;
        let end = start + n;
        while b < end {
            let (inst, within) = (b / self.size, b % self.size);
            let i = self.before.partition_point(|&x| x <= within) - 1;
            let (off, len) = self.runs[i];
            let skip = within - self.before[i];
            let take = (len - skip).min(end - b);
            let at = self.disp + inst * self.extent + off + skip;
            match out.last_mut() {
                Some((o, l)) if *o + *l == at => *l += take,
                _ => out.push((at, take)),
            }
            b += take;
        }
        out
    }

    /// How many data bytes of the view lie before file byte `pos` (for `MPI_SEEK_END`).
    pub fn data_before(&self, pos: i64) -> i64 {
        if pos <= self.disp {
            return 0;
        }
        let rel = pos - self.disp;
        let (inst, within) = (rel / self.extent, rel % self.extent);
        let mut n = inst * self.size;
        for &(off, len) in &self.runs {
            if within > off {
                n += (within - off).min(len);
            }
        }
        n
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strided() -> View {
        // Filetype: 2 data bytes then a 2-byte hole (MPI 4.1 §14.3 tiling), from disp 10.
        View {
            disp: 10,
            etype: Handle(MPI_BYTE),
            filetype: Handle(MPI_BYTE),
            datarep: "native".into(),
            etype_size: 1,
            runs: vec![(0, 2)],
            before: vec![0],
            size: 2,
            extent: 4,
        }
    }

    #[test]
    fn tiles_the_filetype_from_the_displacement() {
        // MPI 4.1 §14.3: the filetype is repeated from disp; data goes only where it has data.
        let v = strided();
        assert_eq!(v.file_byte(0), 10);
        assert_eq!(v.file_byte(1), 11);
        assert_eq!(v.file_byte(2), 14);
        assert_eq!(v.pieces(1, 4), vec![(11, 1), (14, 2), (18, 1)]);
        assert_eq!(v.data_before(15), 3);
        assert_eq!(v.data_before(17), 4);
    }

    #[test]
    fn default_view_is_linear() {
        // MPI 4.1 §14.2.1: the default view is a linear byte stream from byte 0.
        let v = View::default_view();
        assert_eq!(v.pieces(5, 100), vec![(5, 100)]);
        assert_eq!(v.data_before(42), 42);
    }
}
