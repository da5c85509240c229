//! umbra-core: Umbra's hot cryptography as a Node-API addon, standard library only.
//! Each area module exposes its functions through one `register(&Exports)`.

pub mod balance;
pub mod bn254;
pub mod cipher;
pub mod hash;
#[cfg(not(test))]
mod napi;
pub mod pow;
pub mod registration;

#[cfg(not(test))]
fn register_all(exports: &napi::Exports) -> Result<(), String> {
    hash::register(exports)?;
    bn254::register(exports)?;
    balance::register(exports)?;
    cipher::register(exports)?;
    pow::register(exports)?;
    registration::register(exports)?;
    Ok(())
}

/// Node calls this when it loads the addon.
///
/// # Safety
/// Only Node may call it, with the environment and exports object of the module being loaded.
#[cfg(not(test))]
#[no_mangle]
pub unsafe extern "C" fn napi_register_module_v1(env: napi::Env, exports: napi::Value) -> napi::Value {
    let result = std::panic::catch_unwind(|| register_all(&napi::Exports::new(env, exports)));
    match result {
        Ok(Ok(())) => exports,
        Ok(Err(message)) => {
            napi::throw_error(env, &format!("umbra-core failed to register: {message}"));
            exports
        }
        Err(_) => {
            napi::throw_error(env, "umbra-core panicked while registering its functions");
            exports
        }
    }
}
