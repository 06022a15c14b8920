//! The attribute getters' entry points written by hand for x86-64 (System V, ELF): the bodies of
//! `MPI_{Comm,Type,Win}_get_attr`, `MPI_Attr_get` and their Fortran routines, used as naked
//! functions. Each answers a hit or a miss with a few loads and no stack frame, and jumps to the
//! getter's full Rust path (`$slow`, with the arguments untouched in their registers) for
//! anything else: a NULL argument, an unknown or freed handle, a keyval the keyval table of the
//! object's kind does not hold (predefined, dead, of another kind, garbage; one freed while
//! attributes use it is held, and answered), a keyval slot beyond the inline ones, a read that
//! raced a writer. Elsewhere the same
//! macros expand to the Rust fast path written at the entry point, which answers the same
//! cases.
//!
//! Why by hand: an attribute get is the caching chapter's hot path, and in a loop its cost is
//! set by how many 64-byte lines of code the front end fetches per call as much as by the work
//! done. LLVM's version of the same reader spread the hit over four lines with a taken jump
//! between them (the far-page lookup in the middle, 6-byte conditional tail calls, and a
//! `mov` + `cmp` for every atomic load, which LLVM never folds); here the hit is one straight
//! run that starts a cache line (the `.p2align` at the end of each body aligns the function's
//! own section) and ends within two, every exit a short jump. Measured on an AMD EPYC (Zen 5),
//! `MPI_Comm_get_attr`'s hit through page 0 went from 1.54 to 1.43 ns, the floor call (a C
//! call that checks its arguments and loads a word) taking 1.19 ns.
//!
//! The read follows the protocol of [`crate::caching::store::layout`], with every offset and mask
//! taken from there; the store's tests and the C, Fortran and threaded tests run through these
//! entry points, and `tests/fast_get.rs` compares their answers with the Rust reader's.

/// A getter's naked body: `$lines`, then the padding that aligns it and the operands every
/// getter uses (the layout of the store for `$kind`, its tables, the full path `slow`), then
/// `$extra` constants.
#[cfg(mpicache_fast_get)]
macro_rules! getter_asm {
    ($kind:expr, $slow:path, [$($line:expr),* $(,)?]; $($extra:ident = const $value:expr),* $(,)?) => {
        ::core::arch::naked_asm!(
            $($line,)*
            // Pads the section after the function; its alignment puts the function on a line.
            ".p2align 6",
            index_mask = const $crate::caching::store::layout::HANDLE_INDEX_MASK,
            tables = sym $crate::caching::store::GLOBAL_TABLES,
            dir = const $crate::caching::store::layout::dir($kind),
            bound = const $crate::caching::store::layout::BOUND,
            keyvals = const $crate::caching::store::layout::keyvals($kind)
                - $crate::caching::store::layout::dir($kind),
            seq = const $crate::caching::store::layout::SEQ,
            slot_keyval = const $crate::caching::store::layout::KEYVAL,
            word = const $crate::caching::store::layout::WORD,
            held = const $crate::caching::store::layout::SEQ_HELD,
            inline_slots = const $crate::caching::store::layout::INLINE_SLOTS,
            slots = const $crate::caching::store::layout::SLOTS,
            slow = sym $slow,
            $($extra = const $value,)*
        )
    };
}

/// The read of a slot and a C reader's answer: rax the slot, esi the keyval; label 8: not set;
/// label 9: the full path.
#[cfg(mpicache_fast_get)]
macro_rules! c_read_slot {
    () => {
        concat!(
            "mov r8d, [rax + {seq}]\n",
            "cmp esi, [rax + {slot_keyval}]\n",
            "jne 8f\n",
            "mov r9, [rax + {word}]\n",
            "test r8b, {held}\n",
            "jnz 9f\n",
            "cmp r8d, [rax + {seq}]\n",
            "jne 9f\n",
            // The C view: the pointer set from C, else the address of the word.
            "test r8b, {provenance}\n",
            "cmovz rax, r9\n",
            "mov [rdx], rax\n",
            "mov dword ptr [rcx], 1\n",
            "xor eax, eax\n",
            "ret\n",
        )
    };
}

/// The body of a C getter `(handle, keyval, void *attribute_val, int *flag) -> int`:
/// `c_get_attr!(ObjectKind::X, slow_fn, { rust fallback })`.
#[cfg(mpicache_fast_get)]
macro_rules! c_get_attr {
    ($kind:expr, $slow:path, $fallback:block) => {
        $crate::caching::store::getters_x86_64::getter_asm!($kind, $slow, [
            // edi handle, esi keyval, rdx attribute_val, rcx flag. The hit through page 0 is
            // one straight run that ends within the function's second cache line.
            "test rdx, rdx",
            "jz 9f",
            "test rcx, rcx",
            "jz 9f",
            "mov eax, edi",
            "and eax, {index_mask}",
            // r8: this kind's directory, with the keyval table at {keyvals} from it.
            "lea r8, [rip + {tables} + {dir}]",
            "mov r9, [r8 + rax*8]",
            "test r9, r9",
            "jz 9f",
            "cmp edi, [r9 + {bound}]",
            "jne 9f",
            // The keyval's slot is its low 16 bits.
            "movzx eax, si",
            "cmp esi, [r8 + rax*8 + {keyvals}]",
            "jne 9f",
            "cmp eax, {inline_slots}",
            "jae 9f",
            "lea rax, [rax + rax*2]",
            "lea rax, [r9 + rax*8 + {slots}]",
            $crate::caching::store::getters_x86_64::c_read_slot!(),
            // Close to every branch to it, so that all of them are short.
            "9:",
            "jmp {slow}",
            // Not set: flag = false.
            "8:",
            "xor eax, eax",
            "mov [rcx], eax",
            "ret",
            ];
            provenance = const $crate::caching::store::layout::SEQ_PROVENANCE,
        )
    };
}

#[cfg(not(mpicache_fast_get))]
macro_rules! c_get_attr {
    ($kind:expr, $slow:path, $fallback:block) => {
        $fallback
    };
}

/// The read of a slot and a Fortran reader's answer: r9 the slot, r11d the keyval, `$store`
/// the store of the word (r10) to `attribute_val`; label 8: not set; label 9: the full path.
#[cfg(mpicache_fast_get_fortran)]
macro_rules! fortran_read_slot {
    ($store:literal) => {
        concat!(
            "mov eax, [r9 + {seq}]\n",
            "cmp r11d, [r9 + {slot_keyval}]\n",
            "jne 8f\n",
            "mov r10, [r9 + {word}]\n",
            "test al, {held}\n",
            "jnz 9f\n",
            "cmp eax, [r9 + {seq}]\n",
            "jne 9f\n",
            $store,
            "\n",
            // IERROR = MPI_SUCCESS (0) unless it is absent, then FLAG = .TRUE. (1), from one
            // register: shorter than two stores of constants.
            "xor eax, eax\n",
            "test r8, r8\n",
            "jz 2f\n",
            "mov [r8], eax\n",
            "2:\n",
            "inc eax\n",
            "mov [rcx], eax\n",
            "ret\n",
        )
    };
}

/// The body of a Fortran getter `(*handle, *keyval, *attribute_val, *flag, *ierror)`, whose
/// `attribute_val` is `INTEGER(KIND=MPI_ADDRESS_KIND)` (`address`: the whole word) or `INTEGER`
/// (`integer`: its low 4 bytes, as `MPI_ATTR_GET` reads): `fortran_get_attr!(ObjectKind::X,
/// address, slow_fn, { rust fallback })`. 4-byte INTEGER and LOGICAL only.
#[cfg(mpicache_fast_get_fortran)]
macro_rules! fortran_get_attr {
    ($kind:expr, address, $slow:path, $fallback:block) => {
        $crate::caching::store::getters_x86_64::fortran_get_attr!(@asm $kind, "mov [rdx], r10", $slow)
    };
    ($kind:expr, integer, $slow:path, $fallback:block) => {
        $crate::caching::store::getters_x86_64::fortran_get_attr!(@asm $kind, "mov [rdx], r10d", $slow)
    };
    (@asm $kind:expr, $store:literal, $slow:path) => {
        $crate::caching::store::getters_x86_64::getter_asm!($kind, $slow, [
            // rdi &handle, rsi &keyval, rdx &attribute_val, rcx &flag, r8 &ierror (may be
            // NULL): the arguments stay as they are for the full path. (Every byte counts in
            // the run to page 0's answer: it must end within the function's second line.)
            "test rdi, rdi",
            "jz 9f",
            "test rsi, rsi",
            "jz 9f",
            "test rdx, rdx",
            "jz 9f",
            "test rcx, rcx",
            "jz 9f",
            "mov eax, [rdi]",
            "and eax, {index_mask}",
            // r10: this kind's directory, with the keyval table at {keyvals} from it.
            "lea r10, [rip + {tables} + {dir}]",
            "mov r9, [r10 + rax*8]",
            "test r9, r9",
            "jz 9f",
            "mov eax, [rdi]",
            "cmp eax, [r9 + {bound}]",
            "jne 9f",
            // The keyval's slot is its low 16 bits.
            "movzx eax, word ptr [rsi]",
            "mov r11d, [rsi]",
            "cmp r11d, [r10 + rax*8 + {keyvals}]",
            "jne 9f",
            "cmp eax, {inline_slots}",
            "jae 9f",
            "lea rax, [rax + rax*2]",
            "lea r9, [r9 + rax*8 + {slots}]",
            $crate::caching::store::getters_x86_64::fortran_read_slot!($store),
            "9:",
            "jmp {slow}",
            // Not set: FLAG = .FALSE. (0) and IERROR = MPI_SUCCESS (0) unless it is absent.
            "8:",
            "xor eax, eax",
            "mov [rcx], eax",
            "test r8, r8",
            "jz 2f",
            "mov [r8], eax",
            "2:",
            "ret",
            ];
        )
    };
}

#[cfg(not(mpicache_fast_get_fortran))]
macro_rules! fortran_get_attr {
    ($kind:expr, $width:ident, $slow:path, $fallback:block) => {
        $fallback
    };
}

#[cfg(mpicache_fast_get_fortran)]
pub(crate) use fortran_read_slot;
pub(crate) use {c_get_attr, fortran_get_attr};
#[cfg(mpicache_fast_get)]
pub(crate) use {c_read_slot, getter_asm};

// The keyval slot is read as a 16-bit word.
const _: () = assert!(crate::caching::store::layout::KEYVAL_SLOT_MASK == 0xffff);
// What the readers store: MPI_SUCCESS as a zeroed register (and, in Fortran, .TRUE. as that
// register plus one, in 4-byte INTEGERs and LOGICALs: asserted in src/fortran/attr.rs, where
// the Fortran types are).
const _: () = assert!(crate::consts::MPI_SUCCESS == 0);
