//! The pickle inside a `torch.save` file, read as data and never run: the
//! opcodes `torch.save(model.state_dict(), path)` writes, and only the globals
//! a state dict names (ordered dicts, torch's tensor rebuilders and storage
//! classes). Any other global is refused by name before anything is built.
//!
//! Our own and not `candle_core::pickle`: on hostile bytes candle's reader
//! allocates a string's declared length before reading it (4 GiB from five
//! bytes), clones memo entries deeply, and panics on a short rebuild tuple
//! (`Vec::remove`); here every allocation is bounded by the bytes read and
//! every malformed input is an error.

use std::cell::RefCell;
use std::rc::Rc;

/// What the pickle's objects come to; only what a state dict can hold.
#[derive(Clone, Debug)]
pub(crate) enum Value {
    None,
    /// A bool or a float: read, never needed by a state dict.
    Bool,
    Int(i64),
    Float,
    Str(Rc<str>),
    Tuple(Rc<Vec<Value>>),
    List(Rc<RefCell<Vec<Value>>>),
    Dict(Rc<RefCell<Vec<(Value, Value)>>>),
    /// An allowed global, not yet called.
    Global(Global),
    /// A storage the file holds under `key` (`BINPERSID`).
    Storage(Rc<StorageRef>),
    Tensor(Rc<TensorRef>),
    Mark,
}

/// The globals a state dict may name.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Global {
    OrderedDict,
    RebuildTensorV2,
    RebuildParameter,
    Storage(StorageType),
}

/// torch's storage classes that hold floating-point weights.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StorageType {
    F32,
    F16,
    BF16,
    F64,
}

impl StorageType {
    pub fn size(self) -> usize {
        match self {
            StorageType::F32 => 4,
            StorageType::F16 | StorageType::BF16 => 2,
            StorageType::F64 => 8,
        }
    }
}

#[derive(Debug)]
pub(crate) struct StorageRef {
    pub dtype: StorageType,
    /// The entry `data/<key>` of the zip.
    pub key: String,
    /// Elements in the storage.
    pub numel: usize,
}

/// `torch._utils._rebuild_tensor_v2(storage, offset, size, stride, …)`.
#[derive(Debug)]
pub(crate) struct TensorRef {
    pub storage: Rc<StorageRef>,
    pub offset: usize,
    pub shape: Vec<usize>,
    pub stride: Vec<usize>,
}

#[derive(Debug, thiserror::Error, PartialEq)]
pub enum PickleError {
    #[error("its pickle names `{module}.{name}`; a state dict holds only tensors, so nothing else is read (and nothing in the file is ever run)")]
    Global { module: String, name: String },
    #[error("its pickle ends early (at byte {at})")]
    Truncated { at: usize },
    #[error(
        "its pickle has opcode 0x{op:02x} at byte {at}, which a saved state dict does not use"
    )]
    Opcode { op: u8, at: usize },
    #[error("its pickle is malformed at byte {at}: {what}")]
    Malformed { at: usize, what: String },
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], PickleError> {
        let end = self
            .at
            .checked_add(n)
            .filter(|&e| e <= self.bytes.len())
            .ok_or(PickleError::Truncated {
                at: self.bytes.len(),
            })?;
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }
    fn u8(&mut self) -> Result<u8, PickleError> {
        Ok(self.take(1)?[0])
    }
    fn u16(&mut self) -> Result<u16, PickleError> {
        let b = self.take(2)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }
    fn u32(&mut self) -> Result<u32, PickleError> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    fn line(&mut self) -> Result<&'a str, PickleError> {
        let rest = &self.bytes[self.at..];
        let n = rest
            .iter()
            .position(|&b| b == b'\n')
            .ok_or(PickleError::Truncated {
                at: self.bytes.len(),
            })?;
        let s = self.take(n + 1)?;
        std::str::from_utf8(&s[..n]).map_err(|_| self.malformed("a global's name is not UTF-8"))
    }
    fn text(&mut self, n: usize) -> Result<Rc<str>, PickleError> {
        let b = self.take(n)?;
        std::str::from_utf8(b)
            .map(Rc::from)
            .map_err(|_| self.malformed("a string is not UTF-8"))
    }
    fn malformed(&self, what: impl Into<String>) -> PickleError {
        PickleError::Malformed {
            at: self.at,
            what: what.into(),
        }
    }
}

fn global(module: &str, name: &str) -> Result<Global, PickleError> {
    Ok(match (module, name) {
        ("collections", "OrderedDict") => Global::OrderedDict,
        ("torch._utils", "_rebuild_tensor_v2") => Global::RebuildTensorV2,
        ("torch._utils", "_rebuild_parameter") => Global::RebuildParameter,
        ("torch", "FloatStorage") => Global::Storage(StorageType::F32),
        ("torch", "HalfStorage") => Global::Storage(StorageType::F16),
        ("torch", "BFloat16Storage") => Global::Storage(StorageType::BF16),
        ("torch", "DoubleStorage") => Global::Storage(StorageType::F64),
        _ => {
            return Err(PickleError::Global {
                module: module.into(),
                name: name.into(),
            })
        }
    })
}

/// The object a pickle built. Dropped without recursion: a hostile pickle
/// can nest containers far deeper than the stack (see [`dismantle`]).
pub(crate) struct Pickled(Option<Value>);

impl Pickled {
    pub(crate) fn root(&self) -> &Value {
        self.0.as_ref().expect("taken only by drop")
    }
}

impl Drop for Pickled {
    fn drop(&mut self) {
        if let Some(v) = self.0.take() {
            dismantle(vec![v]);
        }
    }
}

/// Drops values one container at a time instead of recursively. Shared
/// containers are only let go of (their last holder takes them apart);
/// cycles, which only a hostile file makes, are leaked (bounded by its size).
fn dismantle(mut work: Vec<Value>) {
    while let Some(v) = work.pop() {
        match v {
            Value::Tuple(rc) => {
                if let Ok(items) = Rc::try_unwrap(rc) {
                    work.extend(items);
                }
            }
            Value::List(rc) => {
                if let Ok(cell) = Rc::try_unwrap(rc) {
                    work.extend(cell.into_inner());
                }
            }
            Value::Dict(rc) => {
                if let Ok(cell) = Rc::try_unwrap(rc) {
                    for (k, v) in cell.into_inner() {
                        work.push(k);
                        work.push(v);
                    }
                }
            }
            _ => {}
        }
    }
}

/// The machine's state; whatever it holds when it stops (an error, or the
/// values left beside the result) is dismantled, never dropped recursively.
#[derive(Default)]
struct Machine {
    stack: Vec<Value>,
    memo: std::collections::HashMap<u32, Value>,
    /// Values consumed by an opcode, dropped at the end with the rest.
    spent: Vec<Value>,
}

impl Drop for Machine {
    fn drop(&mut self) {
        let mut all = std::mem::take(&mut self.stack);
        all.append(&mut self.spent);
        all.extend(self.memo.drain().map(|(_, v)| v));
        dismantle(all);
    }
}

impl Machine {
    fn pop(&mut self, r: &Reader) -> Result<Value, PickleError> {
        self.stack
            .pop()
            .ok_or_else(|| r.malformed("an opcode pops an empty stack"))
    }

    fn pop_to_mark(&mut self, r: &Reader) -> Result<Vec<Value>, PickleError> {
        let m = self
            .stack
            .iter()
            .rposition(|v| matches!(v, Value::Mark))
            .ok_or_else(|| r.malformed("no mark to pop to"))?;
        let items = self.stack.split_off(m + 1);
        self.stack.pop();
        Ok(items)
    }
}

/// Runs the pickle's opcodes over `bytes` and returns the object it builds.
pub(crate) fn load(bytes: &[u8]) -> Result<Pickled, PickleError> {
    let mut r = Reader { bytes, at: 0 };
    let mut m = Machine::default();
    loop {
        let at = r.at;
        let op = r.u8()?;
        match op {
            0x80 => {
                // PROTO: torch.save writes 2; 3 to 5 read the same here.
                let v = r.u8()?;
                if !(2..=5).contains(&v) {
                    return Err(r.malformed(format!("pickle protocol {v}")));
                }
            }
            0x95 => {
                // FRAME: a length hint only.
                r.take(8)?;
            }
            b'.' => return Ok(Pickled(Some(m.pop(&r)?))),
            b'(' => m.stack.push(Value::Mark),
            b'c' => {
                let module = r.line()?;
                let name = r.line()?;
                m.stack.push(Value::Global(global(module, name)?));
            }
            0x93 => {
                // STACK_GLOBAL
                let name = m.pop(&r)?;
                let module = m.pop(&r)?;
                let g = match (&module, &name) {
                    (Value::Str(a), Value::Str(b)) => global(a, b),
                    _ => Err(r.malformed("a global named by non-strings")),
                };
                m.spent.extend([module, name]);
                m.stack.push(Value::Global(g?));
            }
            b'X' => {
                let n = r.u32()? as usize;
                m.stack.push(Value::Str(r.text(n)?));
            }
            0x8c => {
                let n = r.u8()? as usize;
                m.stack.push(Value::Str(r.text(n)?));
            }
            b'J' => m.stack.push(Value::Int(r.u32()? as i32 as i64)),
            b'K' => m.stack.push(Value::Int(r.u8()? as i64)),
            b'M' => m.stack.push(Value::Int(r.u16()? as i64)),
            0x8a => {
                // LONG1: little-endian two's complement, up to 8 bytes here.
                let n = r.u8()? as usize;
                if n > 8 {
                    return Err(r.malformed(format!("a {n}-byte integer")));
                }
                let b = r.take(n)?;
                let mut v: i64 = 0;
                for (i, &byte) in b.iter().enumerate() {
                    v |= (byte as i64) << (8 * i);
                }
                if n > 0 && n < 8 && b[n - 1] & 0x80 != 0 {
                    v -= 1i64 << (8 * n);
                }
                m.stack.push(Value::Int(v));
            }
            b'G' => {
                r.take(8)?;
                m.stack.push(Value::Float);
            }
            b'N' => m.stack.push(Value::None),
            0x88 | 0x89 => m.stack.push(Value::Bool),
            b')' => m.stack.push(Value::Tuple(Rc::new(vec![]))),
            b't' => {
                let items = m.pop_to_mark(&r)?;
                m.stack.push(Value::Tuple(Rc::new(items)));
            }
            0x85..=0x87 => {
                let n = (op - 0x84) as usize;
                if m.stack.len() < n {
                    return Err(r.malformed("a tuple of more items than the stack holds"));
                }
                let items = m.stack.split_off(m.stack.len() - n);
                let marked = items.iter().any(|v| matches!(v, Value::Mark));
                m.stack.push(Value::Tuple(Rc::new(items)));
                if marked {
                    return Err(r.malformed("a mark inside a tuple"));
                }
            }
            b']' => m.stack.push(Value::List(Rc::new(RefCell::new(vec![])))),
            b'a' | b'e' => {
                let items = match op {
                    b'a' => vec![m.pop(&r)?],
                    _ => m.pop_to_mark(&r)?,
                };
                match m.stack.last() {
                    Some(Value::List(l)) => l.borrow_mut().extend(items),
                    _ => {
                        m.spent.extend(items);
                        return Err(r.malformed("APPEND to a non-list"));
                    }
                }
            }
            b'}' => m.stack.push(Value::Dict(Rc::new(RefCell::new(vec![])))),
            b's' | b'u' => {
                let items = match op {
                    b's' => {
                        let v = m.pop(&r)?;
                        let k = m.pop(&r)?;
                        vec![k, v]
                    }
                    _ => m.pop_to_mark(&r)?,
                };
                let odd = items.len() % 2 != 0;
                match m.stack.last() {
                    Some(Value::Dict(d)) if !odd => {
                        let mut d = d.borrow_mut();
                        let mut it = items.into_iter();
                        while let (Some(k), Some(v)) = (it.next(), it.next()) {
                            d.push((k, v));
                        }
                    }
                    _ => {
                        m.spent.extend(items);
                        return Err(r.malformed("SETITEMS on a non-dict, or a key with no value"));
                    }
                }
            }
            b'q' | b'r' | 0x94 => {
                let id = match op {
                    b'q' => r.u8()? as u32,
                    b'r' => r.u32()?,
                    _ => m.memo.len() as u32,
                };
                let top = m
                    .stack
                    .last()
                    .ok_or_else(|| r.malformed("memo of an empty stack"))?
                    .clone();
                if let Some(old) = m.memo.insert(id, top) {
                    m.spent.push(old);
                }
            }
            b'h' | b'j' => {
                let id = if op == b'h' { r.u8()? as u32 } else { r.u32()? };
                let v = m
                    .memo
                    .get(&id)
                    .ok_or_else(|| r.malformed(format!("memo {id} was never stored")))?
                    .clone();
                m.stack.push(v);
            }
            b'Q' => {
                let pid = m.pop(&r)?;
                let s = storage(&pid, &r);
                m.spent.push(pid);
                m.stack.push(Value::Storage(Rc::new(s?)));
            }
            b'R' => {
                let args = m.pop(&r)?;
                let f = m.pop(&r)?;
                let v = call(&f, &args, &r);
                m.spent.extend([f, args]);
                m.stack.push(v?);
            }
            b'b' => {
                // BUILD: an OrderedDict's state (a state dict's `_metadata`)
                // says nothing about the weights.
                let state = m.pop(&r)?;
                m.spent.push(state);
                if !matches!(m.stack.last(), Some(Value::Dict(_))) {
                    return Err(r.malformed("BUILD on an object other than a dict"));
                }
            }
            _ => return Err(PickleError::Opcode { op, at }),
        }
    }
}

/// A persistent id: `('storage', StorageClass, key, location, numel)`.
fn storage(pid: &Value, r: &Reader) -> Result<StorageRef, PickleError> {
    let bad = || r.malformed("a persistent id that is not a tensor storage");
    let Value::Tuple(t) = pid else {
        return Err(bad());
    };
    match t.as_slice() {
        [Value::Str(kind), Value::Global(Global::Storage(dtype)), Value::Str(key), _, Value::Int(numel)]
            if &**kind == "storage" && *numel >= 0 =>
        {
            Ok(StorageRef {
                dtype: *dtype,
                key: key.to_string(),
                numel: *numel as usize,
            })
        }
        _ => Err(bad()),
    }
}

fn sizes(v: &Value, what: &str, r: &Reader) -> Result<Vec<usize>, PickleError> {
    match v {
        Value::Tuple(t) => t
            .iter()
            .map(|x| match x {
                Value::Int(i) if *i >= 0 => Ok(*i as usize),
                _ => Err(r.malformed(format!("a tensor's {what} is not a tuple of sizes"))),
            })
            .collect(),
        _ => Err(r.malformed(format!("a tensor's {what} is not a tuple"))),
    }
}

/// REDUCE with one of the allowed globals.
fn call(f: &Value, args: &Value, r: &Reader) -> Result<Value, PickleError> {
    let Value::Tuple(args) = args else {
        return Err(r.malformed("REDUCE with arguments that are not a tuple"));
    };
    match *f {
        Value::Global(Global::OrderedDict) if args.is_empty() => {
            Ok(Value::Dict(Rc::new(RefCell::new(vec![]))))
        }
        Value::Global(Global::RebuildTensorV2) => match args.as_slice() {
            [Value::Storage(s), Value::Int(offset), size, stride, ..] if *offset >= 0 => {
                let shape = sizes(size, "size", r)?;
                let stride = sizes(stride, "stride", r)?;
                if shape.len() != stride.len() {
                    return Err(r.malformed("a tensor's size and stride differ in length"));
                }
                Ok(Value::Tensor(Rc::new(TensorRef {
                    storage: s.clone(),
                    offset: *offset as usize,
                    shape,
                    stride,
                })))
            }
            _ => Err(r.malformed("a tensor rebuilt from arguments it does not take")),
        },
        Value::Global(Global::RebuildParameter) => match args.first() {
            Some(Value::Tensor(t)) => Ok(Value::Tensor(t.clone())),
            _ => Err(r.malformed("a parameter that is not a tensor")),
        },
        _ => Err(r.malformed("REDUCE of something that is not an allowed callable")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fails(bytes: &[u8]) -> PickleError {
        match load(bytes) {
            Err(e) => e,
            Ok(_) => panic!("read"),
        }
    }

    #[test]
    fn a_global_outside_the_state_dict_set_is_refused_by_name() {
        let e = fails(b"\x80\x02cposix\nsystem\nq\x00.");
        assert_eq!(
            e,
            PickleError::Global {
                module: "posix".into(),
                name: "system".into()
            }
        );
        assert!(e.to_string().contains("`posix.system`"), "{e}");
    }

    #[test]
    fn a_string_longer_than_the_file_is_an_error_not_an_allocation() {
        let e = fails(b"\x80\x02X\xff\xff\xff\xff");
        assert!(matches!(e, PickleError::Truncated { .. }), "{e}");
    }

    #[test]
    fn negative_long1_integers_read_as_python_does() {
        // pickle.dumps(-200, 2) == b'\x80\x02J8\xff\xff\xff.'; LONG1 of -129: \x8a\x02\x7f\xff
        let int = |b: &[u8]| match load(b).unwrap().root() {
            Value::Int(v) => *v,
            other => panic!("{other:?}"),
        };
        assert_eq!(int(b"\x80\x02\x8a\x02\x7f\xff."), -129);
        assert_eq!(int(b"\x80\x02J8\xff\xff\xff."), -200);
    }

    #[test]
    fn containers_nested_a_million_deep_are_dropped_without_recursion() {
        // `(` `(` … `t` `t`: a million tuples, each inside the next.
        let n = 1_000_000;
        let mut b = b"\x80\x02".to_vec();
        b.extend(std::iter::repeat_n(b'(', n));
        b.extend(std::iter::repeat_n(b't', n));
        b.push(b'.');
        let v = load(&b).unwrap();
        assert!(matches!(v.root(), Value::Tuple(_)));
        drop(v);
        // The same, cut short: the error path dismantles the stack too.
        assert!(load(&b[..b.len() - 1]).is_err());
    }

    #[test]
    fn an_unknown_opcode_is_named() {
        let e = fails(b"\x80\x02\x01");
        assert_eq!(e, PickleError::Opcode { op: 1, at: 2 });
    }
}
