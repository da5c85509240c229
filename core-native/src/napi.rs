//! Our own minimal Node-API binding: the raw C declarations we use (resolved by Node when it loads the addon)
//! and a small safe layer on top. Every exported function has the shape `fn(&Call) -> Result<Value, String>`;
//! one trampoline extracts the arguments, runs it under `catch_unwind` (a panic must never cross the FFI
//! boundary) and turns an `Err` into a thrown JS `Error` with that message.

use std::ffi::{c_char, c_void, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::ptr;

#[repr(C)]
pub struct EnvOpaque {
    _private: [u8; 0],
}
#[repr(C)]
pub struct ValueOpaque {
    _private: [u8; 0],
}
#[repr(C)]
pub struct CallbackInfoOpaque {
    _private: [u8; 0],
}

pub type Env = *mut EnvOpaque;
pub type Value = *mut ValueOpaque;
type CallbackInfo = *mut CallbackInfoOpaque;
type Status = i32;
type Callback = unsafe extern "C" fn(Env, CallbackInfo) -> Value;

const OK: Status = 0;
const TYPEDARRAY_UINT8: i32 = 1;
/// `NAPI_AUTO_LENGTH`: the name is NUL-terminated.
const AUTO_LENGTH: usize = usize::MAX;

extern "C" {
    fn napi_create_function(
        env: Env,
        name: *const c_char,
        len: usize,
        cb: Callback,
        data: *mut c_void,
        result: *mut Value,
    ) -> Status;
    fn napi_get_cb_info(
        env: Env,
        info: CallbackInfo,
        argc: *mut usize,
        argv: *mut Value,
        this: *mut Value,
        data: *mut *mut c_void,
    ) -> Status;
    fn napi_is_typedarray(env: Env, value: Value, result: *mut bool) -> Status;
    fn napi_get_typedarray_info(
        env: Env,
        value: Value,
        kind: *mut i32,
        length: *mut usize,
        data: *mut *mut c_void,
        arraybuffer: *mut Value,
        byte_offset: *mut usize,
    ) -> Status;
    fn napi_create_arraybuffer(env: Env, length: usize, data: *mut *mut c_void, result: *mut Value) -> Status;
    fn napi_create_typedarray(
        env: Env,
        kind: i32,
        length: usize,
        arraybuffer: Value,
        byte_offset: usize,
        result: *mut Value,
    ) -> Status;
    fn napi_throw_error(env: Env, code: *const c_char, msg: *const c_char) -> Status;
    fn napi_is_exception_pending(env: Env, result: *mut bool) -> Status;
    fn napi_set_named_property(env: Env, object: Value, name: *const c_char, value: Value) -> Status;
    fn napi_get_undefined(env: Env, result: *mut Value) -> Status;
    fn napi_get_null(env: Env, result: *mut Value) -> Status;
    fn napi_get_boolean(env: Env, value: bool, result: *mut Value) -> Status;
    fn napi_get_value_double(env: Env, value: Value, result: *mut f64) -> Status;
    fn napi_create_bigint_uint64(env: Env, value: u64, result: *mut Value) -> Status;
    fn napi_get_value_bigint_uint64(env: Env, value: Value, result: *mut u64, lossless: *mut bool) -> Status;
    fn napi_get_value_string_utf8(
        env: Env,
        value: Value,
        buf: *mut c_char,
        bufsize: usize,
        result: *mut usize,
    ) -> Status;
}

fn check(status: Status, what: &str) -> Result<(), String> {
    if status == OK {
        Ok(())
    } else {
        Err(format!("Node-API call {what} failed (status {status})"))
    }
}

/// Arguments of one JS call.
pub struct Call {
    env: Env,
    args: [Value; MAX_ARGS],
    argc: usize,
}

const MAX_ARGS: usize = 8;

pub type Function = fn(&Call) -> Result<Value, String>;

impl Call {
    fn arg(&self, index: usize) -> Result<Value, String> {
        if index < self.argc.min(MAX_ARGS) {
            Ok(self.args[index])
        } else {
            Err(format!("argument {} is missing", index + 1))
        }
    }

    fn uint8_view(&self, index: usize, name: &str) -> Result<(*mut u8, usize), String> {
        let value = self.arg(index)?;
        let mut is_typed = false;
        check(unsafe { napi_is_typedarray(self.env, value, &mut is_typed) }, "napi_is_typedarray")?;
        if !is_typed {
            return Err(format!("{name} must be a Uint8Array"));
        }
        let (mut kind, mut length, mut data, mut offset) = (0i32, 0usize, ptr::null_mut::<c_void>(), 0usize);
        check(
            unsafe {
                napi_get_typedarray_info(
                    self.env,
                    value,
                    &mut kind,
                    &mut length,
                    &mut data,
                    ptr::null_mut(),
                    &mut offset,
                )
            },
            "napi_get_typedarray_info",
        )?;
        if kind != TYPEDARRAY_UINT8 {
            return Err(format!("{name} must be a Uint8Array"));
        }
        Ok((data as *mut u8, length))
    }

    /// Argument `index` as bytes (zero-copy view of a Uint8Array/Buffer, valid for this call only).
    pub fn bytes(&self, index: usize, name: &str) -> Result<&[u8], String> {
        let (data, length) = self.uint8_view(index, name)?;
        Ok(if length == 0 || data.is_null() { &[] } else { unsafe { std::slice::from_raw_parts(data, length) } })
    }

    /// Argument `index` as bytes of exactly `length` bytes.
    pub fn bytes_exact(&self, index: usize, name: &str, length: usize) -> Result<&[u8], String> {
        let bytes = self.bytes(index, name)?;
        if bytes.len() != length {
            return Err(format!("{name} must be {length} bytes, got {}", bytes.len()));
        }
        Ok(bytes)
    }

    /// Argument `index` as a writable byte view: the caller passes an output buffer in (saves allocating one).
    #[allow(clippy::mut_from_ref)]
    pub fn bytes_mut(&self, index: usize, name: &str) -> Result<&mut [u8], String> {
        let (data, length) = self.uint8_view(index, name)?;
        Ok(if length == 0 || data.is_null() {
            &mut []
        } else {
            unsafe { std::slice::from_raw_parts_mut(data, length) }
        })
    }

    /// Argument `index` as a non-negative integer below 2^53 (a JS number).
    pub fn index(&self, index: usize, name: &str) -> Result<u64, String> {
        let mut value = 0f64;
        let status = unsafe { napi_get_value_double(self.env, self.arg(index)?, &mut value) };
        if status != OK || !((0.0..=9007199254740991.0).contains(&value) && value.fract() == 0.0) {
            return Err(format!("{name} must be a non-negative integer"));
        }
        Ok(value as u64)
    }

    /// Argument `index` as a bigint in [0, 2^64).
    pub fn bigint_u64(&self, index: usize, name: &str) -> Result<u64, String> {
        let (mut value, mut lossless) = (0u64, false);
        let status = unsafe { napi_get_value_bigint_uint64(self.env, self.arg(index)?, &mut value, &mut lossless) };
        if status != OK || !lossless {
            return Err(format!("{name} must be a bigint in [0, 2^64)"));
        }
        Ok(value)
    }

    /// Argument `index` as a UTF-8 string.
    pub fn string(&self, index: usize, name: &str) -> Result<String, String> {
        let value = self.arg(index)?;
        let mut length = 0usize;
        if unsafe { napi_get_value_string_utf8(self.env, value, ptr::null_mut(), 0, &mut length) } != OK {
            return Err(format!("{name} must be a string"));
        }
        let mut buf = vec![0u8; length + 1];
        check(
            unsafe {
                napi_get_value_string_utf8(self.env, value, buf.as_mut_ptr() as *mut c_char, buf.len(), &mut length)
            },
            "napi_get_value_string_utf8",
        )?;
        buf.truncate(length);
        String::from_utf8(buf).map_err(|_| format!("{name} is not valid UTF-8"))
    }

    /// A new Uint8Array of `length` bytes filled by `fill` (a plain Uint8Array, like the fallback returns).
    pub fn buffer_with(&self, length: usize, fill: impl FnOnce(&mut [u8])) -> Result<Value, String> {
        let (mut data, mut arraybuffer, mut result) = (ptr::null_mut::<c_void>(), ptr::null_mut(), ptr::null_mut());
        check(
            unsafe { napi_create_arraybuffer(self.env, length, &mut data, &mut arraybuffer) },
            "napi_create_arraybuffer",
        )?;
        check(
            unsafe { napi_create_typedarray(self.env, TYPEDARRAY_UINT8, length, arraybuffer, 0, &mut result) },
            "napi_create_typedarray",
        )?;
        let out: &mut [u8] = if length == 0 || data.is_null() {
            &mut []
        } else {
            unsafe { std::slice::from_raw_parts_mut(data as *mut u8, length) }
        };
        fill(out);
        Ok(result)
    }

    /// A new Uint8Array holding a copy of `bytes`.
    pub fn buffer(&self, bytes: &[u8]) -> Result<Value, String> {
        self.buffer_with(bytes.len(), |out| out.copy_from_slice(bytes))
    }

    pub fn boolean(&self, value: bool) -> Result<Value, String> {
        let mut result = ptr::null_mut();
        check(unsafe { napi_get_boolean(self.env, value, &mut result) }, "napi_get_boolean")?;
        Ok(result)
    }

    pub fn bigint(&self, value: u64) -> Result<Value, String> {
        let mut result = ptr::null_mut();
        check(unsafe { napi_create_bigint_uint64(self.env, value, &mut result) }, "napi_create_bigint_uint64")?;
        Ok(result)
    }

    pub fn null(&self) -> Result<Value, String> {
        let mut result = ptr::null_mut();
        check(unsafe { napi_get_null(self.env, &mut result) }, "napi_get_null")?;
        Ok(result)
    }

    pub fn undefined(&self) -> Result<Value, String> {
        let mut result = ptr::null_mut();
        check(unsafe { napi_get_undefined(self.env, &mut result) }, "napi_get_undefined")?;
        Ok(result)
    }
}

unsafe extern "C" fn trampoline(env: Env, info: CallbackInfo) -> Value {
    let mut call = Call { env, args: [ptr::null_mut(); MAX_ARGS], argc: MAX_ARGS };
    let mut data = ptr::null_mut::<c_void>();
    if napi_get_cb_info(env, info, &mut call.argc, call.args.as_mut_ptr(), ptr::null_mut(), &mut data) != OK {
        throw(env, "could not read the call's arguments");
        return ptr::null_mut();
    }
    // SAFETY: `data` is the `Function` pointer `export` registered with this JS function.
    let function: Function = std::mem::transmute::<*mut c_void, Function>(data);
    match catch_unwind(AssertUnwindSafe(|| function(&call))) {
        Ok(Ok(value)) => value,
        Ok(Err(message)) => {
            throw(env, &message);
            ptr::null_mut()
        }
        Err(panic) => {
            let detail =
                panic.downcast_ref::<&str>().map(|s| s.to_string()).or_else(|| panic.downcast_ref::<String>().cloned());
            throw(env, &format!("internal error in umbra-core: {}", detail.unwrap_or_else(|| "panic".into())));
            ptr::null_mut()
        }
    }
}

fn throw(env: Env, message: &str) {
    let mut pending = false;
    unsafe { napi_is_exception_pending(env, &mut pending) };
    if pending {
        return; // a Node-API call already threw; keep that exception
    }
    let text = CString::new(message.replace('\0', " ")).unwrap_or_default();
    unsafe { napi_throw_error(env, ptr::null(), text.as_ptr()) };
}

/// The `exports` object a module fills in.
pub struct Exports {
    env: Env,
    object: Value,
}

impl Exports {
    pub fn new(env: Env, object: Value) -> Self {
        Exports { env, object }
    }

    /// Exposes `function` as `exports[name]`.
    pub fn function(&self, name: &str, function: Function) -> Result<(), String> {
        let cname = CString::new(name).map_err(|_| format!("bad export name {name}"))?;
        let mut value = ptr::null_mut();
        check(
            unsafe {
                napi_create_function(
                    self.env,
                    cname.as_ptr(),
                    AUTO_LENGTH,
                    trampoline,
                    function as *mut c_void,
                    &mut value,
                )
            },
            "napi_create_function",
        )?;
        check(
            unsafe { napi_set_named_property(self.env, self.object, cname.as_ptr(), value) },
            "napi_set_named_property",
        )
    }
}

/// Throws `message` as a JS Error from module registration.
pub fn throw_error(env: Env, message: &str) {
    throw(env, message);
}
