//! The grammar, rounding, caps, formatting and saturating arithmetic of quantities, and
//! that no input makes the parser panic.

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
        "1m3", "1Gi3", "1ee3", "1e3e3", "1e 3", "1i", "1b", "1Mb", "1.5.", "1x", "1é", "5-", "1+",
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

/// The values a hostile or hand-edited bundle holds (issue 22, item 12) do not read, each
/// for its reason, as upstream `ParseQuantity` refuses them (`1e400` it keeps as 10^400,
/// which no int64 count holds: too large either way).
#[test]
fn malformed_values_do_not_read() {
    let kind = |e: &QuantityError| match e {
        QuantityError::Empty => "empty",
        QuantityError::BadNumber(_) => "number",
        QuantityError::BadSuffix(_) => "suffix",
        QuantityError::Overflow(_) => "overflow",
        QuantityError::TooLarge(_) => "too large",
        QuantityError::Negative(_) => "negative",
    };
    for (text, expected) in [
        ("1.5.5Gi", "suffix"),
        ("1e400", "overflow"),
        ("NaN", "number"),
        ("nan", "number"),
        ("", "empty"),
        ("0x10", "suffix"),
        ("1e18E", "suffix"),
        ("1_000", "suffix"),
        ("1KiB", "suffix"),
        ("Infinity", "number"),
        ("1,5", "suffix"),
        ("4 cores", "suffix"),
    ] {
        for parse in [Quantity::parse, Quantity::parse_countable] {
            let err = parse(text).expect_err(text);
            assert_eq!(kind(&err), expected, "{text:?} -> {err:?}");
        }
    }
}

/// Valid edge forms of the grammar read as Kubernetes reads them.
#[test]
fn valid_edge_forms() {
    assert_eq!(units("1e3"), 1000);
    assert_eq!(q(".5").nanos(), 500_000_000);
    assert_eq!(units("+1"), 1);
    assert_eq!(units("1E"), 10_i128.pow(18), "a bare E is exa");
    assert_eq!(q("1e-3"), q("1m"));
    assert_eq!(q("0.1m").nanos(), 100_000, "0.1m is 100u");
    assert_eq!(units("1.G"), 1_000_000_000);
    for text in ["1e3", ".5", "+1", "1E", "1e-3", "0.1m", "7Ei", "-7Ei"] {
        assert_eq!(
            Quantity::parse_countable(text),
            Quantity::parse(text),
            "{text}"
        );
    }
}

/// A value of 2^63-1 units or more is too large to count: Kubernetes caps a binary one
/// there and overflows on a decimal one, so it is refused rather than printed as the cap.
#[test]
fn values_beyond_kubernetes_counts_are_too_large() {
    assert_eq!(units("9223372036854775806"), CAP - 1);
    assert!(Quantity::parse_countable("9223372036854775806").is_ok());
    for text in [
        "8Ei",
        "-8Ei",
        "100Ei",
        "9223372036854775807",
        "1e19",
        "10E",
        "99999999999999999999Ki",
    ] {
        assert!(Quantity::parse(text).is_ok(), "{text} reads");
        let err = Quantity::parse_countable(text).expect_err(text);
        assert_eq!(err, QuantityError::TooLarge(text.to_owned()));
        assert!(!err.to_string().contains("9223372036854775807") || text.contains("922"));
    }
    assert_eq!(
        Quantity::parse_countable(" 8Ei\n"),
        Err(QuantityError::TooLarge("8Ei".to_owned()))
    );
}

#[test]
fn quantities_compared_never_read_equal_when_they_differ() {
    let q = |s: &str| Quantity::parse(s).unwrap();
    let texts = |r: &str, v: &[&str]| {
        Quantity::display_apart(r, &v.iter().map(|s| q(s)).collect::<Vec<_>>())
    };
    assert_eq!(
        texts("memory", &["8.0000001Gi", "8Gi", "8Gi"]),
        ["8.0000001Gi", "8Gi", "8Gi"]
    );
    // One byte apart, a unit of 2^60.
    assert_eq!(
        texts("requests.memory", &["1152921504606846977", "1Ei"]),
        ["1.000000000000000001Ei", "1Ei"]
    );
    // Alike values and values apart at two decimals keep their usual rendering.
    assert_eq!(
        texts("memory", &["1.5Gi", "1536Mi", "7.63Gi"]),
        ["1.5Gi", "1.5Gi", "7.63Gi"]
    );
    // cpu shows the millicores the scheduler counts; other units are exact.
    assert_eq!(texts("cpu", &["1.0000001", "1001m"]), ["1.001", "1.001"]);
    assert_eq!(
        texts("pods", &["110", "110.000000001"]),
        ["110", "110.000000001"]
    );
}
