//! Exact Kubernetes resource quantities (`k8s.io/apimachinery` `resource.Quantity`).
//!
//! A quantity is stored as a signed count of nano-units on `i128`. Nano is the finest
//! precision Kubernetes keeps, so every value the API server can hold is represented
//! exactly, and `i128` leaves room for sums far beyond any real cluster (about 1.7e29
//! units). Floats are never used: quota and fit decisions are made on exact integers
//! (`MilliValue()` for CPU, `Value()` for everything else) and we must reproduce them.
//!
//! Grammar (see `kubernetes-semantics.md` §6):
//!
//! ```text
//! <quantity> ::= <sign>? <number> <suffix>
//! <number>   ::= <digits> | <digits>. | <digits>.<digits> | .<digits>
//! <suffix>   ::= n | u | m | "" | k | M | G | T | P | E
//!              | Ki | Mi | Gi | Ti | Pi | Ei
//!              | (e | E) <sign>? <digits>
//! ```

use std::fmt;
use std::iter::Sum;
use std::num::IntErrorKind;
use std::ops::{Add, AddAssign, Neg, Sub, SubAssign};
use std::str::FromStr;

/// Nano-units per whole unit.
const NANOS_PER_UNIT: i128 = 1_000_000_000;
/// Nano-units per milli-unit.
const NANOS_PER_MILLI: i128 = 1_000_000;
/// Kubernetes silently caps BinarySI quantities at the largest `int64` ("8Ei" -> 2^63-1).
const BINARY_CAP_NANOS: i128 = i64::MAX as i128 * NANOS_PER_UNIT;
/// Binary unit suffixes, indexed by their power of 1024.
const BINARY_SUFFIXES: [&str; 7] = ["", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"];

/// An exact Kubernetes resource quantity, stored as a signed count of nano-units (10^-9) on i128.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Quantity {
    nanos: i128,
}

/// Why a string is not a valid quantity. Variants carry the original input for messages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum QuantityError {
    /// The input was empty or only whitespace.
    Empty,
    /// The numeric part is malformed: no digits, doubled sign, and so on.
    BadNumber(String),
    /// The suffix is not one Kubernetes accepts (`K`, `Kii`, a bare `e`, ...).
    BadSuffix(String),
    /// The value or its exponent is too large to hold exactly.
    Overflow(String),
    /// The value reads but is beyond what Kubernetes counts (see [`Quantity::parse_countable`]).
    TooLarge(String),
    /// The value reads but is below 0 where an amount is meant (see `kube::meta::Qty`).
    Negative(String),
}

impl fmt::Display for QuantityError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Empty => f.write_str("quantity is empty"),
            Self::BadNumber(s) => write!(f, "invalid quantity {s:?}: cannot parse the number"),
            Self::BadSuffix(s) => write!(
                f,
                "invalid quantity {s:?}: unknown suffix \
                 (expected n, u, m, k, M, G, T, P, E, Ki..Ei, or an exponent like e3)"
            ),
            Self::Overflow(s) => write!(f, "invalid quantity {s:?}: value out of range"),
            Self::TooLarge(s) => write!(
                f,
                "quantity {s:?} is too large: Kubernetes counts at most 2^63-1 units \
                 (it caps larger binary values and overflows on larger decimal ones)"
            ),
            Self::Negative(s) => write!(
                f,
                "quantity {s:?} is negative: the API server refuses a resource amount below 0"
            ),
        }
    }
}

impl std::error::Error for QuantityError {}

/// How a suffix scales the number in front of it.
#[derive(Clone, Copy)]
enum Scale {
    /// Multiply by 10^n (decimal SI letters and `e<n>` exponents).
    Decimal(i32),
    /// Multiply by 1024^n (`Ki` .. `Ei`); such values are capped like Kubernetes does.
    Binary(u32),
}

impl Quantity {
    /// The zero quantity.
    pub const ZERO: Quantity = Quantity { nanos: 0 };

    /// Parses a quantity with the full Kubernetes grammar.
    ///
    /// Surrounding whitespace is trimmed. Non-zero values finer than 1n are rounded up
    /// away from zero to the next nano, and binary-suffixed values are capped at
    /// 2^63-1 units, both as the API server does. Never panics, whatever the input.
    pub fn parse(s: &str) -> Result<Quantity, QuantityError> {
        Self::parse_with(s, true)
    }

    /// [`Quantity::parse`] for a value to compute with: also refuses a magnitude of 2^63-1
    /// units or more. Kubernetes counts in `int64` (`Value()`): it caps a larger binary
    /// value at 2^63-1 and its sums overflow, so what it decides for such a value cannot be
    /// reproduced, and printing the cap ("needs 9223372036854775807 cpu") would mislead.
    pub fn parse_countable(s: &str) -> Result<Quantity, QuantityError> {
        let q = Self::parse(s)?;
        if q.nanos.unsigned_abs() >= BINARY_CAP_NANOS.unsigned_abs() {
            return Err(QuantityError::TooLarge(s.trim().to_owned()));
        }
        Ok(q)
    }

    /// [`Quantity::parse`] without the short path for common forms, for the fuzz target
    /// that checks both agree.
    #[doc(hidden)]
    pub fn parse_by_the_grammar(s: &str) -> Result<Quantity, QuantityError> {
        Self::parse_with(s, false)
    }

    fn parse_with(s: &str, shortcut: bool) -> Result<Quantity, QuantityError> {
        let text = s.trim();
        if text.is_empty() {
            return Err(QuantityError::Empty);
        }
        let (negative, unsigned) = match text.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, text.strip_prefix('+').unwrap_or(text)),
        };
        if shortcut && let Some(magnitude) = simple_magnitude(unsigned) {
            return Ok(Quantity {
                nanos: if negative { -magnitude } else { magnitude },
            });
        }
        Self::parse_general(s, negative, unsigned)
    }

    /// [`Quantity::parse`] for any number and suffix, once the sign is off.
    fn parse_general(s: &str, negative: bool, unsigned: &str) -> Result<Quantity, QuantityError> {
        let (int_part, rest) = unsigned.split_at(leading_digits(unsigned));
        let (frac_part, suffix) = match rest.strip_prefix('.') {
            Some(after_dot) => after_dot.split_at(leading_digits(after_dot)),
            None => ("", rest),
        };
        if int_part.is_empty() && frac_part.is_empty() {
            return Err(QuantityError::BadNumber(s.to_owned()));
        }
        let scale = parse_suffix(suffix, s)?;

        // Trailing fractional zeros carry no value; dropping them keeps the work small.
        let frac_part = frac_part.trim_end_matches('0');
        let mut digits: Vec<u8> = int_part
            .bytes()
            .chain(frac_part.bytes())
            .map(|b| b - b'0')
            .skip_while(|&d| d == 0)
            .collect();
        if digits.is_empty() {
            return Ok(Self::ZERO);
        }
        let frac_len = i64::try_from(frac_part.len()).unwrap_or(i64::MAX);

        let magnitude = match scale {
            Scale::Decimal(exp) => {
                let shift = (i64::from(exp) + 9).saturating_sub(frac_len);
                nanos_rounding_up(&digits, shift)
                    .ok_or_else(|| QuantityError::Overflow(s.to_owned()))?
            }
            Scale::Binary(power) => {
                // Multiply in decimal so long fractions ("1.000…01Ki") stay exact.
                for _ in 0..power {
                    mul_small(&mut digits, 1024);
                }
                nanos_rounding_up(&digits, 9_i64.saturating_sub(frac_len))
                    .map_or(BINARY_CAP_NANOS, |n| n.min(BINARY_CAP_NANOS))
            }
        };
        Ok(Quantity {
            nanos: if negative { -magnitude } else { magnitude },
        })
    }

    /// Builds a quantity from a raw nano-unit count.
    pub fn from_nanos(n: i128) -> Self {
        Quantity { nanos: n }
    }

    /// The raw nano-unit count.
    pub fn nanos(self) -> i128 {
        self.nanos
    }

    /// Builds a quantity from milli-units (millicores for CPU); saturates on overflow.
    pub fn from_milli(m: i128) -> Self {
        Quantity {
            nanos: m.saturating_mul(NANOS_PER_MILLI),
        }
    }

    /// Builds a quantity from whole units (bytes, pods, GPUs); saturates on overflow.
    pub fn from_units(u: i128) -> Self {
        Quantity {
            nanos: u.saturating_mul(NANOS_PER_UNIT),
        }
    }

    /// Kubernetes `MilliValue()`: ceil(q * 1000) away from zero, so `cpu: 100u` counts as 1m.
    pub fn milli_ceil(self) -> i128 {
        div_away_from_zero(self.nanos, NANOS_PER_MILLI)
    }

    /// Kubernetes `Value()`: ceil(q) away from zero, so `memory: 1.5` counts as 2 bytes.
    pub fn value_ceil(self) -> i128 {
        div_away_from_zero(self.nanos, NANOS_PER_UNIT)
    }

    /// True when the quantity is exactly zero.
    pub fn is_zero(self) -> bool {
        self.nanos == 0
    }

    /// Sum, or `None` if it would leave the `i128` nano range.
    pub fn checked_add(self, rhs: Quantity) -> Option<Quantity> {
        self.nanos.checked_add(rhs.nanos).map(Self::from_nanos)
    }

    /// Difference, or `None` if it would leave the `i128` nano range.
    pub fn checked_sub(self, rhs: Quantity) -> Option<Quantity> {
        self.nanos.checked_sub(rhs.nanos).map(Self::from_nanos)
    }

    /// Product with a count (e.g. per-pod request times replicas), or `None` on overflow.
    pub fn checked_mul(self, n: i128) -> Option<Quantity> {
        self.nanos.checked_mul(n).map(Self::from_nanos)
    }

    /// Sum, clamped to the representable range instead of overflowing.
    pub fn saturating_add(self, rhs: Quantity) -> Quantity {
        Self::from_nanos(self.nanos.saturating_add(rhs.nanos))
    }

    /// Difference, clamped to the representable range instead of overflowing.
    pub fn saturating_sub(self, rhs: Quantity) -> Quantity {
        Self::from_nanos(self.nanos.saturating_sub(rhs.nanos))
    }

    /// Product with a count, clamped to the representable range instead of overflowing.
    pub fn saturating_mul(self, n: i128) -> Quantity {
        Self::from_nanos(self.nanos.saturating_mul(n))
    }

    /// Human rendering for diagnostics, chosen by resource name.
    ///
    /// * `cpu`: below one core as millicores (`"250m"`), otherwise cores with up to three
    ///   decimals (`"5.5"`, `"12"`). Uses `milli_ceil`, i.e. what the scheduler counts.
    /// * `memory`, `ephemeral-storage`, `storage`, `hugepages-*`: bytes (`value_ceil`) in the
    ///   largest binary unit with up to two decimals (`"512Mi"`, `"1.5Gi"`, `"7.63Gi"`);
    ///   below 1Ki as a plain number.
    /// * anything else (`pods`, `nvidia.com/gpu`, ...): exact plain decimal (`"3"`, `"0.5"`).
    ///
    /// ResourceQuota keys such as `requests.cpu` or `limits.memory` are understood too.
    pub fn display_for(self, resource: &str) -> String {
        let name = resource
            .strip_prefix("requests.")
            .or_else(|| resource.strip_prefix("limits."))
            .unwrap_or(resource);
        match name {
            "cpu" => self.display_cpu(),
            _ if is_bytes(name) => self.display_bytes(),
            _ => format_scaled(self.nanos, 9),
        }
    }

    /// [`display_for`](Self::display_for) of quantities compared in one sentence, so that
    /// unequal values never read equal: where two differ in bytes but render alike
    /// ("needs 8Gi; 8Gi free" for 8.0000001Gi), each of them is rendered with as many
    /// more decimals as tell it from the others ("8.0000001Gi").
    pub fn display_apart(resource: &str, values: &[Quantity]) -> Vec<String> {
        let mut texts: Vec<String> = values.iter().map(|q| q.display_for(resource)).collect();
        // cpu renders what the scheduler counts (millicores), other units exactly: only
        // bytes, rounded to two decimals of a unit, can read alike and count apart.
        if !is_bytes(resource) {
            return texts;
        }
        let alike = |texts: &[String], i: usize| {
            (0..values.len())
                .any(|j| texts[j] == texts[i] && values[j].value_ceil() != values[i].value_ceil())
        };
        let clash: Vec<usize> = (0..values.len()).filter(|&i| alike(&texts, i)).collect();
        for decimals in 3..=19 {
            if clash.iter().all(|&i| !alike(&texts, i)) {
                break;
            }
            for &i in &clash {
                texts[i] = values[i].display_bytes_with(decimals);
            }
        }
        for &i in &clash {
            if alike(&texts, i) {
                texts[i] = values[i].value_ceil().to_string();
            }
        }
        texts
    }

    /// Kubernetes canonical DecimalSI form (§6.2): integer mantissa with the largest
    /// power-of-1000 suffix that loses nothing, e.g. `"1500m"`, `"1k"`, `"1234500u"`, `"0"`.
    ///
    /// Exponents beyond `E` (10^18) fall back to `e` notation (`"1e21"`), which re-parses.
    pub fn canonical_decimal(self) -> String {
        if self.nanos == 0 {
            return "0".to_owned();
        }
        let mut mantissa = self.nanos.unsigned_abs();
        let mut exponent: i32 = -9;
        while mantissa.is_multiple_of(10) {
            mantissa /= 10;
            exponent += 1;
        }
        // Lower the exponent to a multiple of three. Cannot overflow: we only put back
        // at most as many factors of ten as were just removed.
        let extra = exponent.rem_euclid(3);
        mantissa *= 10_u128.pow(extra.unsigned_abs());
        exponent -= extra;
        let suffix = match exponent {
            -9 => "n".to_owned(),
            -6 => "u".to_owned(),
            -3 => "m".to_owned(),
            0 => String::new(),
            3 => "k".to_owned(),
            6 => "M".to_owned(),
            9 => "G".to_owned(),
            12 => "T".to_owned(),
            15 => "P".to_owned(),
            18 => "E".to_owned(),
            other => format!("e{other}"),
        };
        let sign = if self.nanos < 0 { "-" } else { "" };
        format!("{sign}{mantissa}{suffix}")
    }

    /// Kubernetes canonical BinarySI form (§6.2), as used for memory written with `Ki`..`Ei`:
    /// `"1536Mi"`, `"1Gi"`. Values with |q| < 1024 or a fractional part fall back to
    /// [`canonical_decimal`](Self::canonical_decimal), and integers not divisible by 1024
    /// stay plain (`"1000000000"`). Magnitudes above the 2^63-1 binary cap also use the
    /// decimal form, since a binary suffix would be capped when parsed back.
    pub fn canonical_binary(self) -> String {
        let abs = self.nanos.unsigned_abs();
        let whole = self.nanos % NANOS_PER_UNIT == 0;
        if !whole
            || abs < 1024 * NANOS_PER_UNIT.unsigned_abs()
            || abs > BINARY_CAP_NANOS.unsigned_abs()
        {
            return self.canonical_decimal();
        }
        let mut mantissa = (self.nanos / NANOS_PER_UNIT).unsigned_abs();
        let mut power = 0;
        while power < BINARY_SUFFIXES.len() - 1 && mantissa.is_multiple_of(1024) {
            mantissa /= 1024;
            power += 1;
        }
        let sign = if self.nanos < 0 { "-" } else { "" };
        format!("{sign}{mantissa}{}", BINARY_SUFFIXES[power])
    }

    /// CPU rendering for [`display_for`](Self::display_for).
    fn display_cpu(self) -> String {
        let milli = self.milli_ceil();
        if milli != 0 && milli.unsigned_abs() < 1000 {
            format!("{milli}m")
        } else {
            format_scaled(milli, 3)
        }
    }

    /// Byte rendering for [`display_for`](Self::display_for).
    fn display_bytes(self) -> String {
        self.display_bytes_with(2)
    }

    /// Bytes in the largest binary unit with up to `decimals` decimals (rounded half up),
    /// or whole bytes where that does not fit in 128 bits.
    fn display_bytes_with(self, decimals: u32) -> String {
        let bytes = self.value_ceil();
        let abs = bytes.unsigned_abs();
        if abs < 1024 {
            return bytes.to_string();
        }
        let mut power = 1;
        while power < BINARY_SUFFIXES.len() - 1 && abs >= 1_u128 << (10 * (power + 1)) {
            power += 1;
        }
        let scale = 10_u128.pow(decimals);
        // The unit's 10^-decimals, rounded half up.
        let hundredths = |power: usize| {
            let unit = 1_u128 << (10 * power);
            abs.checked_mul(scale)
                .and_then(|a| a.checked_add(unit / 2))
                .map(|a| a / unit)
        };
        let Some(mut scaled) = hundredths(power) else {
            return bytes.to_string();
        };
        // Rounding can reach the next unit ("1023.999Mi" -> "1024Mi"); prefer "1Gi".
        if scaled >= 1024 * scale && power < BINARY_SUFFIXES.len() - 1 {
            power += 1;
            scaled = hundredths(power).unwrap_or(scaled);
        }
        let sign = if bytes < 0 { "-" } else { "" };
        let number = format_scaled(i128::try_from(scaled).unwrap_or(i128::MAX), decimals);
        format!("{sign}{number}{}", BINARY_SUFFIXES[power])
    }
}

/// Nano-units of up to 15 digits and a suffix (`250m`, `512Mi`, `2`, `1e3`): most
/// quantities of a bundle, read without the general path's digit vector. `None` for
/// anything else (a fraction, a sign, more digits, a bad suffix, a value out of range),
/// which the general path reads.
fn simple_magnitude(s: &str) -> Option<i128> {
    let digits = leading_digits(s);
    if digits == 0 || digits > 15 {
        return None;
    }
    let n = s[..digits]
        .bytes()
        .fold(0i128, |n, d| n * 10 + i128::from(d - b'0'));
    match parse_suffix(&s[digits..], s).ok()? {
        // Below one nano needs rounding: the general path's.
        Scale::Decimal(exp) => {
            let shift = u32::try_from(exp.checked_add(9)?).ok()?;
            n.checked_mul(10i128.checked_pow(shift)?)
        }
        Scale::Binary(power) => {
            let unit = 1024i128.checked_pow(power)?.checked_mul(NANOS_PER_UNIT)?;
            Some(n.checked_mul(unit)?.min(BINARY_CAP_NANOS))
        }
    }
}

/// Length of the run of ASCII digits at the start of `s`.
fn leading_digits(s: &str) -> usize {
    s.bytes().take_while(u8::is_ascii_digit).count()
}

/// Interprets everything after the number; `input` is only used for error messages.
fn parse_suffix(suffix: &str, input: &str) -> Result<Scale, QuantityError> {
    let scale = match suffix {
        "n" => Scale::Decimal(-9),
        "u" => Scale::Decimal(-6),
        "m" => Scale::Decimal(-3),
        "" => Scale::Decimal(0),
        "k" => Scale::Decimal(3),
        "M" => Scale::Decimal(6),
        "G" => Scale::Decimal(9),
        "T" => Scale::Decimal(12),
        "P" => Scale::Decimal(15),
        "E" => Scale::Decimal(18),
        "Ki" => Scale::Binary(1),
        "Mi" => Scale::Binary(2),
        "Gi" => Scale::Binary(3),
        "Ti" => Scale::Binary(4),
        "Pi" => Scale::Binary(5),
        "Ei" => Scale::Binary(6),
        _ => {
            // A bare "E" is exa (handled above); "e"/"E" followed by a signed integer is
            // an exponent. Kubernetes accepts any exponent that fits in 32 bits.
            let exponent = suffix
                .strip_prefix(['e', 'E'])
                .filter(|e| !e.is_empty())
                .ok_or_else(|| QuantityError::BadSuffix(input.to_owned()))?;
            match exponent.parse::<i32>() {
                Ok(e) => Scale::Decimal(e),
                Err(err)
                    if matches!(
                        err.kind(),
                        IntErrorKind::PosOverflow | IntErrorKind::NegOverflow
                    ) =>
                {
                    return Err(QuantityError::Overflow(input.to_owned()));
                }
                Err(_) => return Err(QuantityError::BadSuffix(input.to_owned())),
            }
        }
    };
    Ok(scale)
}

/// Multiplies a big-endian decimal digit string in place by a small factor.
fn mul_small(digits: &mut Vec<u8>, factor: u32) {
    let mut carry = 0_u32;
    for d in digits.iter_mut().rev() {
        let v = u32::from(*d) * factor + carry;
        *d = (v % 10) as u8;
        carry = v / 10;
    }
    let mut prefix = Vec::new();
    while carry > 0 {
        prefix.push((carry % 10) as u8);
        carry /= 10;
    }
    prefix.reverse();
    digits.splice(0..0, prefix);
}

/// `digits * 10^shift` as an integer, rounding any dropped non-zero remainder up.
/// `None` when the result does not fit; `digits` must have no leading zeros.
fn nanos_rounding_up(digits: &[u8], shift: i64) -> Option<i128> {
    if shift >= 0 {
        let factor = 10_i128.checked_pow(u32::try_from(shift).ok()?)?;
        digits_value(digits)?.checked_mul(factor)
    } else {
        let dropped = usize::try_from(shift.unsigned_abs()).unwrap_or(usize::MAX);
        let (kept, rest) = digits.split_at(digits.len().saturating_sub(dropped));
        let round_up = rest.iter().any(|&d| d != 0);
        digits_value(kept)?.checked_add(i128::from(round_up))
    }
}

/// Value of a big-endian decimal digit string, or `None` if it exceeds `i128`.
fn digits_value(digits: &[u8]) -> Option<i128> {
    digits.iter().try_fold(0_i128, |acc, &d| {
        acc.checked_mul(10)?.checked_add(i128::from(d))
    })
}

/// `n / d` rounded away from zero; `d` must be positive.
fn div_away_from_zero(n: i128, d: i128) -> i128 {
    let quotient = n / d;
    match (n % d).signum() {
        1 => quotient + 1,
        -1 => quotient - 1,
        _ => quotient,
    }
}

/// Whether a resource is counted in bytes (rendered in binary units).
fn is_bytes(resource: &str) -> bool {
    let name = resource
        .strip_prefix("requests.")
        .or_else(|| resource.strip_prefix("limits."))
        .unwrap_or(resource);
    matches!(name, "memory" | "ephemeral-storage" | "storage") || name.starts_with("hugepages-")
}

/// Renders `value / 10^decimals` exactly, trimming trailing fractional zeros.
fn format_scaled(value: i128, decimals: u32) -> String {
    let divisor = 10_u128.pow(decimals);
    let abs = value.unsigned_abs();
    let (whole, frac) = (abs / divisor, abs % divisor);
    let sign = if value < 0 { "-" } else { "" };
    if frac == 0 {
        return format!("{sign}{whole}");
    }
    let width = decimals as usize;
    let frac = format!("{frac:0width$}");
    format!("{sign}{whole}.{}", frac.trim_end_matches('0'))
}

impl FromStr for Quantity {
    type Err = QuantityError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Quantity::parse(s)
    }
}

impl fmt::Display for Quantity {
    /// Kubernetes canonical DecimalSI form, so output can be matched against API text.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.canonical_decimal())
    }
}

// Operators saturate rather than panic: a malicious or corrupt bundle must not be able
// to crash the analyzer, and no real quantity comes near the i128 limits.

impl Add for Quantity {
    type Output = Quantity;

    fn add(self, rhs: Quantity) -> Quantity {
        self.saturating_add(rhs)
    }
}

impl Sub for Quantity {
    type Output = Quantity;

    fn sub(self, rhs: Quantity) -> Quantity {
        self.saturating_sub(rhs)
    }
}

impl AddAssign for Quantity {
    fn add_assign(&mut self, rhs: Quantity) {
        *self = *self + rhs;
    }
}

impl SubAssign for Quantity {
    fn sub_assign(&mut self, rhs: Quantity) {
        *self = *self - rhs;
    }
}

impl Neg for Quantity {
    type Output = Quantity;

    fn neg(self) -> Quantity {
        Self::from_nanos(self.nanos.saturating_neg())
    }
}

impl Sum for Quantity {
    fn sum<I: Iterator<Item = Quantity>>(iter: I) -> Quantity {
        iter.fold(Quantity::ZERO, Add::add)
    }
}

impl<'a> Sum<&'a Quantity> for Quantity {
    fn sum<I: Iterator<Item = &'a Quantity>>(iter: I) -> Quantity {
        iter.copied().sum()
    }
}

#[cfg(test)]
mod tests;
