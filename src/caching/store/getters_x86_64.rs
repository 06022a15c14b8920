//! The attribute getters' entry points written by hand for x86-64 (System V, ELF): the bodies of
//! `MPI_{Comm,Type,Win}_get_attr`, `MPI_Attr_get` and their Fortran routines, used as naked
//! functions (cargo feature `asm-getters`, on by default). Each answers a hit or a miss with a
//! few loads and no stack frame, and jumps to the getter's full Rust path (`$slow`, with the
//! arguments restored in their registers) for anything else: a NULL argument, an unknown or
//! freed handle, a keyval the keyval table of the object's kind does not hold (predefined, dead,
//! of another kind, garbage; one freed while attributes use it is held, and answered), a read
//! that raced a writer or a table rebuild. Without the feature, or elsewhere, the same macros
//! expand to the Rust fast path written at the entry point, which answers the same cases.
//!
//! Why by hand: an attribute get is the caching chapter's hot path, and in a loop its cost is
//! set by how many 64-byte lines of code the front end fetches per call as much as by the work
//! done: the hit here is one straight run, every exit a short jump.
//!
//! The lookup ([`lookup!`]) is written once and shared by the C and Fortran forms: it follows
//! the protocol of [`crate::caching::store::layout`], every offset, mask and constant taken from
//! there, and the assertions at the end of this file and of `layout.rs` stop the build when an
//! assumption made here no longer holds. The registers the lookup uses are saved below the
//! stack pointer (the System V red zone: these are leaf functions until they jump) and
//! restored before the jump to the full path.

/// The store's constant for Fibonacci hashing, for `imul` (which takes no 64-bit immediate).
#[cfg(mpicache_fast_get)]
pub(crate) static FIB: u64 = crate::caching::store::layout::FIB;

/// The shared lookup. In: edi the handle, esi the keyval, `[rsp-8]` free for the caller's rcx.
/// Out: label 4 with rax the bucket, rcx its head, r8 the record, `[rsp-16]` the record's
/// version; label 7: not set, once the version is checked; label 9: the full path. Clobbers
/// rax, rcx, r8-r11.
#[cfg(mpicache_fast_get)]
macro_rules! lookup {
    () => {
        concat!(
            "mov eax, edi\n",
            "and eax, {index_mask}\n",
            "mov r8d, eax\n",
            "shr r8d, {leaf_bits}\n",
            // r9: this kind's directory, with the keyval table at {keyvals} from it.
            "lea r9, [rip + {tables} + {dir}]\n",
            "mov r8, [r9 + r8*8]\n",
            "test r8, r8\n",
            "jz 9f\n",
            "and eax, {leaf_mask}\n",
            "mov r8, [r8 + rax*8]\n",
            "test r8, r8\n",
            "jz 9f\n",
            // The record: version even, bound to this handle.
            "mov r10, [r8 + {version}]\n",
            "test r10b, 1\n",
            "jnz 9f\n",
            "mov [rsp - 16], r10\n",
            "movsxd rax, edi\n",
            "cmp rax, [r8 + {key}]\n",
            "jne 9f\n",
            // The keyval is held, of this kind: its slot is its low 16 bits.
            "movzx eax, si\n",
            "cmp esi, [r9 + rax*8 + {keyvals}]\n",
            "jne 9f\n",
            "mov r11, [r8 + {table}]\n",
            "test r11, r11\n",
            "jz 7f\n",
            // home = (slot * FIB) >> (64 - log2); mask = 2^log2 - 1 = !0 >> (64 - log2).
            "mov ecx, r11d\n",
            "and ecx, {log2_mask}\n",
            "neg ecx\n",
            "imul rax, qword ptr [rip + {fib}]\n",
            "shr rax, cl\n",
            "mov r9, rax\n",
            "mov r10, -1\n",
            "shr r10, cl\n",
            "and r11, -{log2_mask} - 1\n",
            // At most one pass over the table.
            "lea rcx, [r10 + 1]\n",
            "mov [rsp - 24], rcx\n",
            "3:\n",
            "lea rax, [r9 + r9*2]\n",
            "lea rax, [r11 + rax*8]\n",
            "mov rcx, [rax + {head}]\n",
            "cmp esi, [rax + {head_keyval}]\n",
            "je 4f\n",
            "cmp dword ptr [rax + {head_keyval}], 0\n",
            "je 7f\n",
            "inc r9\n",
            "and r9, r10\n",
            "dec qword ptr [rsp - 24]\n",
            "jnz 3b\n",
            "jmp 9f\n",
        )
    };
}

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
            leaf_bits = const $crate::caching::store::layout::LEAF_BITS,
            leaf_mask = const $crate::caching::store::layout::LEAF_MASK,
            tables = sym $crate::caching::store::GLOBAL_TABLES,
            dir = const $crate::caching::store::layout::dir($kind),
            keyvals = const $crate::caching::store::layout::keyvals($kind)
                - $crate::caching::store::layout::dir($kind),
            version = const $crate::caching::store::layout::VERSION,
            key = const $crate::caching::store::layout::KEY,
            table = const $crate::caching::store::layout::TABLE,
            log2_mask = const $crate::caching::store::layout::TABLE_LOG2_MASK,
            fib = sym $crate::caching::store::getters_x86_64::FIB,
            head = const $crate::caching::store::layout::HEAD,
            head_keyval = const $crate::caching::store::layout::HEAD_KEYVAL,
            word = const $crate::caching::store::layout::WORD,
            held = const $crate::caching::store::layout::HEAD_HELD,
            slow = sym $slow,
            $($extra = const $value,)*
        )
    };
}

/// The body of a C getter `(handle, keyval, void *attribute_val, int *flag) -> int`:
/// `c_get_attr!(ObjectKind::X, slow_fn, { rust fallback })`.
#[cfg(mpicache_fast_get)]
macro_rules! c_get_attr {
    ($kind:expr, $slow:path, $fallback:block) => {
        $crate::caching::store::getters_x86_64::getter_asm!($kind, $slow, [
            // edi handle, esi keyval, rdx attribute_val, rcx flag (kept at [rsp - 8]).
            "mov [rsp - 8], rcx",
            "test rdx, rdx",
            "jz 9f",
            "test rcx, rcx",
            "jz 9f",
            $crate::caching::store::getters_x86_64::lookup!(),
            // Found: the word is the C view, once the head and the version are the same.
            "4:",
            "mov r11, [rax + {word}]",
            "test cl, {held}",
            "jnz 9f",
            "cmp rcx, [rax + {head}]",
            "jne 9f",
            "mov rcx, [rsp - 16]",
            "cmp rcx, [r8 + {version}]",
            "jne 9f",
            "mov rcx, [rsp - 8]",
            "mov [rdx], r11",
            "mov dword ptr [rcx], 1",
            "xor eax, eax",
            "ret",
            // Not set, if the version still holds: flag = false.
            "7:",
            "mov rcx, [rsp - 16]",
            "cmp rcx, [r8 + {version}]",
            "jne 9f",
            "mov rcx, [rsp - 8]",
            "xor eax, eax",
            "mov [rcx], eax",
            "ret",
            "9:",
            "mov rcx, [rsp - 8]",
            "jmp {slow}",
            ];
        )
    };
}

#[cfg(not(mpicache_fast_get))]
macro_rules! c_get_attr {
    ($kind:expr, $slow:path, $fallback:block) => {
        $fallback
    };
}

/// The body of a Fortran getter `(*handle, *keyval, *attribute_val, *flag, *ierror)`, whose
/// `attribute_val` is `INTEGER(KIND=MPI_ADDRESS_KIND)` (`address`: the whole word) or `INTEGER`
/// (`integer`: its low 4 bytes, as `MPI_ATTR_GET` reads): `fortran_get_attr!(ObjectKind::X,
/// address, slow_fn, { rust fallback })`. 4-byte INTEGER and LOGICAL only.
#[cfg(mpicache_fast_get_fortran)]
macro_rules! fortran_get_attr {
    ($kind:expr, address, $slow:path, $fallback:block) => {
        $crate::caching::store::getters_x86_64::fortran_get_attr!(@asm $kind, "mov [rdx], r11", $slow)
    };
    ($kind:expr, integer, $slow:path, $fallback:block) => {
        $crate::caching::store::getters_x86_64::fortran_get_attr!(@asm $kind, "mov [rdx], r11d", $slow)
    };
    (@asm $kind:expr, $store:literal, $slow:path) => {
        $crate::caching::store::getters_x86_64::getter_asm!($kind, $slow, [
            // rdi &handle, rsi &keyval, rdx &attribute_val, rcx &flag, r8 &ierror (may be
            // NULL): rcx, r8, rdi and rsi are kept below the stack pointer for the full path.
            "mov [rsp - 8], rcx",
            "mov [rsp - 32], r8",
            "mov [rsp - 40], rdi",
            "mov [rsp - 48], rsi",
            "test rdi, rdi",
            "jz 9f",
            "test rsi, rsi",
            "jz 9f",
            "test rdx, rdx",
            "jz 9f",
            "test rcx, rcx",
            "jz 9f",
            "mov edi, [rdi]",
            "mov esi, [rsi]",
            $crate::caching::store::getters_x86_64::lookup!(),
            // Found: the word, or for a Fortran-set value the cell it points into, once the
            // head and the version are the same.
            "4:",
            "mov r11, [rax + {word}]",
            "test cl, {held}",
            "jnz 9f",
            "cmp rcx, [rax + {head}]",
            "jne 9f",
            "test cl, {provenance}",
            "jz 5f",
            "and r11, -8",
            "mov r11, [r11]",
            "cmp rcx, [rax + {head}]",
            "jne 9f",
            "5:",
            "mov rcx, [rsp - 16]",
            "cmp rcx, [r8 + {version}]",
            "jne 9f",
            $store,
            // IERROR = MPI_SUCCESS (0) unless it is absent, then FLAG = .TRUE. (1), from one
            // register.
            "mov rcx, [rsp - 8]",
            "mov r8, [rsp - 32]",
            "xor eax, eax",
            "test r8, r8",
            "jz 2f",
            "mov [r8], eax",
            "2:",
            "inc eax",
            "mov [rcx], eax",
            "ret",
            // Not set, if the version still holds: FLAG = .FALSE. (0), IERROR = MPI_SUCCESS.
            "7:",
            "mov rcx, [rsp - 16]",
            "cmp rcx, [r8 + {version}]",
            "jne 9f",
            "mov rcx, [rsp - 8]",
            "mov r8, [rsp - 32]",
            "xor eax, eax",
            "mov [rcx], eax",
            "test r8, r8",
            "jz 2f",
            "mov [r8], eax",
            "2:",
            "ret",
            "9:",
            "mov rcx, [rsp - 8]",
            "mov r8, [rsp - 32]",
            "mov rdi, [rsp - 40]",
            "mov rsi, [rsp - 48]",
            "jmp {slow}",
            ];
            provenance = const $crate::caching::store::layout::HEAD_PROVENANCE,
        )
    };
}

#[cfg(not(mpicache_fast_get_fortran))]
macro_rules! fortran_get_attr {
    ($kind:expr, $width:ident, $slow:path, $fallback:block) => {
        $fallback
    };
}

pub(crate) use {c_get_attr, fortran_get_attr};
#[cfg(mpicache_fast_get)]
pub(crate) use {getter_asm, lookup};

// The keyval slot is read as a 16-bit word; a keyval is never 0 or negative (0 marks an empty
// bucket, which the lookup reads as "not set").
const _: () = assert!(crate::caching::store::layout::KEYVAL_SLOT_MASK == 0xffff);
// What the readers store: MPI_SUCCESS as a zeroed register (and, in Fortran, .TRUE. as that
// register plus one, in 4-byte INTEGERs and LOGICALs: asserted in src/fortran/attr.rs, where
// the Fortran types are).
const _: () = assert!(crate::consts::MPI_SUCCESS == 0);
// The lookup keeps at most 48 bytes below the stack pointer: inside the 128-byte red zone.
const RED_ZONE_USED: usize = 48;
const _: () = assert!(RED_ZONE_USED <= 128);
// The held bit and provenance fit `test cl, imm8`; a cell is 8-aligned (`and r11, -8`).
const _: () = assert!(
    crate::caching::store::layout::HEAD_HELD < 128
        && crate::caching::store::layout::HEAD_PROVENANCE < 128
);
