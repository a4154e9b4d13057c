//! The checksum of Alea's binary files (networks, data, the Die Chess table): FNV-1a, 32 bits,
//! enough to catch a damaged or truncated file.

/// FNV-1a (32 bits) of `bytes`.
pub fn fnv1a(bytes: &[u8]) -> u32 {
    bytes.iter().fold(0x811c_9dc5u32, |h, &b| (h ^ u32::from(b)).wrapping_mul(0x0100_0193))
}
