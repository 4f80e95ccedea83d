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
            "memory" | "ephemeral-storage" | "storage" => self.display_bytes(),
            _ if name.starts_with("hugepages-") => self.display_bytes(),
            _ => format_scaled(self.nanos, 9),
        }
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
        let bytes = self.value_ceil();
        let abs = bytes.unsigned_abs();
        if abs < 1024 {
            return bytes.to_string();
        }
        let mut power = 1;
        while power < BINARY_SUFFIXES.len() - 1 && abs >= 1_u128 << (10 * (power + 1)) {
            power += 1;
        }
        // Hundredths of the unit, rounded half up; |bytes| < 2^98 so `* 100` fits u128.
        let hundredths = |power: usize| {
            let unit = 1_u128 << (10 * power);
            (abs * 100 + unit / 2) / unit
        };
        let mut scaled = hundredths(power);
        // Rounding can reach the next unit ("1023.999Mi" -> "1024Mi"); prefer "1Gi".
        if scaled >= 1024 * 100 && power < BINARY_SUFFIXES.len() - 1 {
            power += 1;
            scaled = hundredths(power);
        }
        let sign = if bytes < 0 { "-" } else { "" };
        let number = format_scaled(i128::try_from(scaled).unwrap_or(i128::MAX), 2);
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
mod tests {
    use super::*;

    /// The short path for common forms gives what the general grammar gives.
    #[test]
    fn simple_forms_agree_with_the_general_path() {
        let numbers = [
            "0",
            "1",
            "007",
            "250",
            "999999999999999",
            "9999999999999999",
            "12345678",
        ];
        let suffixes = [
            "", "m", "k", "M", "G", "Ki", "Mi", "Gi", "Ti", "Pi", "n", "e3", "K",
        ];
        for sign in ["", "-", "+"] {
            for n in numbers {
                for suffix in suffixes {
                    let text = format!("{sign}{n}{suffix}");
                    assert_eq!(
                        Quantity::parse(&text),
                        Quantity::parse_by_the_grammar(&text),
                        "{text}"
                    );
                }
            }
        }
        assert_eq!(
            Quantity::parse("999999999999999Ti"),
            Ok(Quantity::from_nanos(BINARY_CAP_NANOS))
        );
    }

    fn q(s: &str) -> Quantity {
        Quantity::parse(s).unwrap_or_else(|e| panic!("{s:?} should parse: {e}"))
    }

    fn units(s: &str) -> i128 {
        let n = q(s).nanos();
        assert_eq!(
            n % NANOS_PER_UNIT,
            0,
            "{s:?} is not a whole number of units"
        );
        n / NANOS_PER_UNIT
    }

    const CAP: i128 = i64::MAX as i128;

    #[test]
    fn plain_integers_and_signs() {
        assert_eq!(q("0"), Quantity::ZERO);
        assert_eq!(units("1"), 1);
        assert_eq!(units("42"), 42);
        assert_eq!(units("+5"), 5);
        assert_eq!(units("-5"), -5);
        assert_eq!(q("-0"), Quantity::ZERO);
        assert_eq!(q("+0"), Quantity::ZERO);
    }

    #[test]
    fn leading_and_trailing_zeros() {
        assert_eq!(units("007"), 7);
        assert_eq!(units("0000000000000000000000000000000000000000000001"), 1);
        assert_eq!(q("00.50").nanos(), 500_000_000);
        assert_eq!(q("0.000"), Quantity::ZERO);
        assert_eq!(
            units("2.000000000000000000000000000000000000000000000000000"),
            2
        );
        assert_eq!(q("000m"), Quantity::ZERO);
    }

    #[test]
    fn number_forms() {
        assert_eq!(units("1."), 1);
        assert_eq!(q(".5").nanos(), 500_000_000);
        assert_eq!(q("1.5").nanos(), 1_500_000_000);
        assert_eq!(q("-.25").nanos(), -250_000_000);
        assert_eq!(q("+1.").nanos(), 1_000_000_000);
        assert_eq!(q("0.000000001").nanos(), 1);
    }

    #[test]
    fn every_decimal_suffix() {
        let cases: [(&str, i128); 10] = [
            ("1n", 1),
            ("1u", 1_000),
            ("1m", 1_000_000),
            ("1", 1_000_000_000),
            ("1k", 1_000_000_000_000),
            ("1M", 10_i128.pow(15)),
            ("1G", 10_i128.pow(18)),
            ("1T", 10_i128.pow(21)),
            ("1P", 10_i128.pow(24)),
            ("1E", 10_i128.pow(27)),
        ];
        for (text, nanos) in cases {
            assert_eq!(q(text).nanos(), nanos, "{text}");
        }
        assert_eq!(q("250m").nanos(), 250_000_000);
        assert_eq!(q("1.5k").nanos(), 1_500 * NANOS_PER_UNIT);
        assert_eq!(q("-3M").nanos(), -3 * 10_i128.pow(15));
    }

    #[test]
    fn every_binary_suffix() {
        for (power, suffix) in BINARY_SUFFIXES.iter().enumerate().skip(1) {
            assert_eq!(units(&format!("1{suffix}")), 1 << (10 * power), "{suffix}");
        }
        assert_eq!(units("1Ki"), 1024);
        assert_eq!(units("1.5Gi"), 1_610_612_736);
        assert_eq!(units("0.5Ki"), 512);
        assert_eq!(units("512Mi"), 512 * 1024 * 1024);
        assert_eq!(units("-2Gi"), -2 * (1 << 30));
        assert_eq!(q("0.001Ki").nanos(), 1_024_000_000);
        assert_eq!(q("0Ei"), Quantity::ZERO);
    }

    #[test]
    fn exponent_forms() {
        assert_eq!(units("1e3"), 1000);
        assert_eq!(units("1E3"), 1000);
        assert_eq!(q("1E-3").nanos(), 1_000_000);
        assert_eq!(q("1e-3"), q("1m"));
        assert_eq!(units("1.5e+2"), 150);
        assert_eq!(units("1e0"), 1);
        assert_eq!(units("1e+0"), 1);
        assert_eq!(q("2e-9").nanos(), 2);
        assert_eq!(units("-1.5e2"), -150);
        assert_eq!(units(".5e1"), 5);
        assert_eq!(units("1.e2"), 100);
        assert_eq!(units("12e6"), 12_000_000);
        assert_eq!(units("1e18"), 10_i128.pow(18));
        assert_eq!(units("1e020"), 10_i128.pow(20));
    }

    #[test]
    fn sub_nano_rounds_up_away_from_zero() {
        assert_eq!(q("0.9n").nanos(), 1);
        assert_eq!(q("-0.9n").nanos(), -1);
        assert_eq!(q("0.1n").nanos(), 1);
        assert_eq!(q("1.1n").nanos(), 2);
        assert_eq!(q("1.0n").nanos(), 1);
        assert_eq!(q("0.0000000001").nanos(), 1);
        assert_eq!(q("1e-50").nanos(), 1);
        assert_eq!(q("-1e-2000000000").nanos(), -1);
        assert_eq!(q("0e-50"), Quantity::ZERO);
        // Tiny binary fractions: 1024 * 1e-28 rounds up to one nano above 1024.
        assert_eq!(
            q("1.0000000000000000000000000001Ki").nanos(),
            1024 * NANOS_PER_UNIT + 1
        );
        assert_eq!(q("0.0000000000001Ki").nanos(), 1);
    }

    #[test]
    fn binary_values_are_capped_like_kubernetes() {
        assert_eq!(units("8Ei"), CAP);
        assert_eq!(units("-8Ei"), -CAP);
        assert_eq!(units("7Ei"), 7 << 60);
        assert_eq!(units("8191Pi"), 8191 << 50);
        assert_eq!(units("8192Pi"), CAP);
        assert_eq!(
            units("999999999999999999999999999999999999999999999999999999Ei"),
            CAP
        );
        // Decimal values are not capped.
        assert_eq!(units("10E"), 10_i128.pow(19));
        assert_eq!(units("9223372036854775808"), CAP + 1);
    }

    #[test]
    fn whitespace_is_trimmed() {
        assert_eq!(units("  1Gi\n"), 1 << 30);
        assert_eq!(q("\t250m "), q("250m"));
    }

    #[test]
    fn empty_input() {
        assert_eq!(Quantity::parse(""), Err(QuantityError::Empty));
        assert_eq!(Quantity::parse("  \t\n"), Err(QuantityError::Empty));
    }

    #[test]
    fn bad_suffixes() {
        for text in [
            "1K", "1Kii", "1e", "1E+", "1e-", "1 Gi", "1..2", "1ki", "1mi", "1KI", "1gi", "1e3.5",
            "1m3", "1Gi3", "1ee3", "1e3e3", "1e 3", "1i", "1b", "1Mb", "1.5.", "1x", "1é", "5-",
            "1+",
        ] {
            assert!(
                matches!(Quantity::parse(text), Err(QuantityError::BadSuffix(_))),
                "{text:?} -> {:?}",
                Quantity::parse(text)
            );
        }
    }

    #[test]
    fn bad_numbers() {
        for text in [
            "abc", "--1", "+-1", "-+1", "e3", "E3", ".", "+", "-", "Ki", "m", "-.", ".e3", "++1",
            "\u{0661}",
        ] {
            assert!(
                matches!(Quantity::parse(text), Err(QuantityError::BadNumber(_))),
                "{text:?} -> {:?}",
                Quantity::parse(text)
            );
        }
    }

    #[test]
    fn overflows() {
        for text in [
            "1e50",
            "1e99999999999",
            "1e-99999999999",
            "0e99999999999",
            "1000000000000000000000000000000000000000",
            "1000000000000E",
            "1e2147483647",
        ] {
            assert!(
                matches!(Quantity::parse(text), Err(QuantityError::Overflow(_))),
                "{text:?} -> {:?}",
                Quantity::parse(text)
            );
        }
        // Large but representable, and zero with a big exponent.
        assert_eq!(q("1e29").nanos(), 10_i128.pow(38));
        assert_eq!(q("0e999"), Quantity::ZERO);
    }

    #[test]
    fn errors_carry_input_and_display() {
        let err = Quantity::parse("1K").unwrap_err();
        assert_eq!(err, QuantityError::BadSuffix("1K".to_owned()));
        assert!(err.to_string().contains("\"1K\""));
        let boxed: Box<dyn std::error::Error> = Box::new(err);
        assert!(!boxed.to_string().is_empty());
        assert_eq!(QuantityError::Empty.to_string(), "quantity is empty");
    }

    #[test]
    fn from_str_matches_parse() {
        assert_eq!("1.5Gi".parse::<Quantity>(), Quantity::parse("1.5Gi"));
        assert!("K".parse::<Quantity>().is_err());
    }

    #[test]
    fn ceil_accessors() {
        assert_eq!(q("100u").milli_ceil(), 1);
        assert_eq!(q("-100u").milli_ceil(), -1);
        assert_eq!(q("250m").milli_ceil(), 250);
        assert_eq!(q("1.0000001").milli_ceil(), 1001);
        assert_eq!(q("2").milli_ceil(), 2000);
        assert_eq!(q("1.5").value_ceil(), 2);
        assert_eq!(q("-1.5").value_ceil(), -2);
        assert_eq!(q("1").value_ceil(), 1);
        assert_eq!(q("1n").value_ceil(), 1);
        assert_eq!(q("0").value_ceil(), 0);
        assert_eq!(q("1Gi").value_ceil(), 1 << 30);
        assert_eq!(
            Quantity::from_nanos(i128::MIN).value_ceil(),
            i128::MIN / NANOS_PER_UNIT - 1
        );
    }

    #[test]
    fn constructors() {
        assert_eq!(Quantity::from_milli(1500), q("1.5"));
        assert_eq!(Quantity::from_units(2), q("2"));
        assert_eq!(Quantity::from_nanos(7).nanos(), 7);
        assert_eq!(Quantity::from_units(i128::MAX).nanos(), i128::MAX);
        assert_eq!(Quantity::from_milli(i128::MIN).nanos(), i128::MIN);
        assert_eq!(Quantity::default(), Quantity::ZERO);
        assert!(Quantity::ZERO.is_zero());
        assert!(!q("1n").is_zero());
    }

    #[test]
    fn arithmetic() {
        let a = q("1.5");
        let b = q("250m");
        assert_eq!(a + b, q("1750m"));
        assert_eq!(a - b, q("1.25"));
        assert_eq!(b - a, q("-1.25"));
        assert_eq!(-a, q("-1.5"));
        let mut c = a;
        c += b;
        c -= q("1");
        assert_eq!(c, q("750m"));
        assert_eq!([a, b, b].into_iter().sum::<Quantity>(), q("2"));
        assert_eq!([a, b].iter().sum::<Quantity>(), q("1750m"));
        assert_eq!(
            Vec::<Quantity>::new().into_iter().sum::<Quantity>(),
            Quantity::ZERO
        );
        assert!(q("1n") < q("1u") && q("-1") < Quantity::ZERO);

        let max = Quantity::from_nanos(i128::MAX);
        let min = Quantity::from_nanos(i128::MIN);
        assert_eq!(a.checked_add(b), Some(q("1750m")));
        assert_eq!(max.checked_add(q("1n")), None);
        assert_eq!(min.checked_sub(q("1n")), None);
        assert_eq!(a.checked_mul(4), Some(q("6")));
        assert_eq!(max.checked_mul(2), None);
        assert_eq!(max.saturating_add(a), max);
        assert_eq!(min.saturating_sub(a), min);
        assert_eq!(a.saturating_mul(3), q("4.5"));
        assert_eq!(max.saturating_mul(-2), min);
        assert_eq!(max + a, max);
        assert_eq!(-min, max);
    }

    #[test]
    fn display_for_cpu() {
        assert_eq!(q("250m").display_for("cpu"), "250m");
        assert_eq!(q("0.25").display_for("cpu"), "250m");
        assert_eq!(q("100u").display_for("cpu"), "1m");
        assert_eq!(q("5.5").display_for("cpu"), "5.5");
        assert_eq!(q("7800m").display_for("cpu"), "7.8");
        assert_eq!(q("12").display_for("cpu"), "12");
        assert_eq!(q("1").display_for("cpu"), "1");
        assert_eq!(q("1234567u").display_for("cpu"), "1.235");
        assert_eq!(q("0").display_for("cpu"), "0");
        assert_eq!(q("-250m").display_for("cpu"), "-250m");
        assert_eq!(q("-1.5").display_for("cpu"), "-1.5");
        assert_eq!(q("2").display_for("requests.cpu"), "2");
    }

    #[test]
    fn display_for_bytes() {
        assert_eq!(q("512Mi").display_for("memory"), "512Mi");
        assert_eq!(q("1.5Gi").display_for("memory"), "1.5Gi");
        assert_eq!(q("8192000000").display_for("memory"), "7.63Gi");
        assert_eq!(q("1000").display_for("memory"), "1000");
        assert_eq!(q("1023.5").display_for("memory"), "1Ki");
        assert_eq!(q("1073741823").display_for("memory"), "1Gi");
        assert_eq!(q("1G").display_for("memory"), "953.67Mi");
        assert_eq!(q("8Ei").display_for("memory"), "8Ei");
        assert_eq!(q("20Ei").display_for("memory"), "8Ei");
        assert_eq!(q("1E").display_for("memory"), "888.18Pi");
        assert_eq!(q("10000E").display_for("memory"), "8673.62Ei");
        assert_eq!(q("-2Gi").display_for("memory"), "-2Gi");
        assert_eq!(q("10Gi").display_for("ephemeral-storage"), "10Gi");
        assert_eq!(q("4Mi").display_for("hugepages-2Mi"), "4Mi");
        assert_eq!(q("1Gi").display_for("limits.memory"), "1Gi");
        assert_eq!(q("5Gi").display_for("requests.storage"), "5Gi");
    }

    #[test]
    fn display_for_other_resources() {
        assert_eq!(q("3").display_for("pods"), "3");
        assert_eq!(q("0.5").display_for("nvidia.com/gpu"), "0.5");
        assert_eq!(q("1k").display_for("count/jobs.batch"), "1000");
        assert_eq!(q("1n").display_for("example.com/foo"), "0.000000001");
        assert_eq!(q("-2.5").display_for("pods"), "-2.5");
    }

    #[test]
    fn canonical_decimal_forms() {
        let cases = [
            ("1.5", "1500m"),
            ("1000", "1k"),
            ("0.1", "100m"),
            ("1.2345", "1234500u"),
            ("0", "0"),
            ("-0", "0"),
            ("1500", "1500"),
            ("-1.5", "-1500m"),
            ("1n", "1n"),
            ("0.9n", "1n"),
            ("100u", "100u"),
            ("1Gi", "1073741824"),
            ("1e3", "1k"),
            ("12e6", "12M"),
            ("1E", "1E"),
            ("1000E", "1e21"),
            ("1e29", "100e27"),
            ("10k", "10k"),
            ("1000000", "1M"),
            ("2500m", "2500m"),
            ("3000m", "3"),
        ];
        for (input, canonical) in cases {
            assert_eq!(q(input).canonical_decimal(), canonical, "{input}");
            assert_eq!(q(input).to_string(), canonical, "{input}");
        }
        assert_eq!(Quantity::from_milli(2500).to_string(), "2500m");
        assert_eq!(Quantity::from_milli(3000).to_string(), "3");
        // Extremes must not overflow while normalising.
        assert_eq!(
            Quantity::from_nanos(i128::MIN).canonical_decimal(),
            "-170141183460469231731687303715884105728n"
        );
        assert_eq!(
            Quantity::from_nanos(i128::MAX / 10 * 10).canonical_decimal(),
            "170141183460469231731687303715884105720n"
        );
    }

    #[test]
    fn canonical_binary_forms() {
        let cases = [
            ("1.5Gi", "1536Mi"),
            ("1Gi", "1Gi"),
            ("1024", "1Ki"),
            ("1000000000", "1000000000"),
            ("512", "512"),
            ("0.5", "500m"),
            ("1024.5", "1024500m"),
            ("8Ei", "9223372036854775807"),
            ("7Ei", "7Ei"),
            ("-2Mi", "-2Mi"),
            ("0", "0"),
            ("1e22", "10e21"),
            ("-16Ei", "-9223372036854775807"),
        ];
        for (input, canonical) in cases {
            assert_eq!(q(input).canonical_binary(), canonical, "{input}");
        }
    }

    /// Deterministic xorshift so the fuzz loop needs no external crate.
    struct XorShift(u64);

    impl XorShift {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }

        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }
    }

    /// Any accepted input must survive a round trip through every rendering.
    fn check_round_trips(input: &str, value: Quantity) {
        let canonical = value.canonical_decimal();
        assert_eq!(q(&canonical), value, "{input:?} -> {canonical:?}");
        let binary = value.canonical_binary();
        assert_eq!(q(&binary), value, "{input:?} -> {binary:?}");
        assert_eq!(q(&value.display_for("pods")), value, "{input:?} plain");
        let _ = value.display_for("cpu");
        let _ = value.display_for("memory");
        let _ = (value.milli_ceil(), value.value_ceil());
    }

    #[test]
    fn never_panics_on_random_input() {
        const ALPHABET: &[u8] = b"0123456789012345678900000.+-eEinumkKMGTP  \t\nxZ\xc3\xa9\x00\xff";
        let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
        let mut accepted = 0;
        for round in 0..20_000 {
            let len = if round % 500 == 0 { 300 } else { rng.below(14) };
            let bytes: Vec<u8> = (0..len)
                .map(|_| {
                    if rng.below(8) == 0 {
                        rng.next() as u8
                    } else {
                        ALPHABET[rng.below(ALPHABET.len())]
                    }
                })
                .collect();
            let text = String::from_utf8_lossy(&bytes);
            if let Ok(value) = Quantity::parse(&text) {
                accepted += 1;
                check_round_trips(&text, value);
            }
        }
        // The alphabet is biased toward valid quantities, so a fair share must parse.
        assert!(accepted > 1_000, "only {accepted} inputs parsed");
    }

    #[test]
    fn never_panics_on_structured_input() {
        let signs = ["", "+", "-", "--"];
        let numbers = [
            "0",
            "1",
            "1.",
            ".5",
            "1.5",
            "007",
            "99999999999999999999999999999",
            ".",
            "",
            "0.000000000000000000000000000000000001",
            "123456789.987654321",
        ];
        let suffixes = [
            "",
            "n",
            "u",
            "m",
            "k",
            "M",
            "G",
            "T",
            "P",
            "E",
            "Ki",
            "Mi",
            "Gi",
            "Ti",
            "Pi",
            "Ei",
            "e3",
            "E-2",
            "e+3",
            "e-40",
            "e40",
            "e2147483647",
            "e-2147483648",
            "e9999999999",
            "K",
            "e",
            "Kii",
        ];
        for sign in signs {
            for number in numbers {
                for suffix in suffixes {
                    let text = format!("{sign}{number}{suffix}");
                    if let Ok(value) = Quantity::parse(&text) {
                        check_round_trips(&text, value);
                    }
                }
            }
        }
        // Very long inputs stay cheap and exact.
        let long_fraction = format!("1.{}1Ei", "0".repeat(100_000));
        assert_eq!(q(&long_fraction).nanos(), (1 << 60) * NANOS_PER_UNIT + 1);
        let long_number = "9".repeat(100_000);
        assert!(matches!(
            Quantity::parse(&long_number),
            Err(QuantityError::Overflow(_))
        ));
        assert_eq!(units(&format!("{long_number}Ki")), CAP);
    }
}
