//! Which encoding a text record is in. Records from Chinese sites and old
//! programs are GBK (GB18030's older part) on the mainland and Big5 in
//! Taiwan and Hong Kong as often as UTF-8, with nothing in the file saying
//! which. A byte-order mark decides when there is one, valid UTF-8 is taken
//! as UTF-8, and otherwise the candidates are weighed by what a game record
//! holds: the glyphs of pieces, moves and results, which the right decoding
//! yields and the wrong one scatters into unrelated characters. A statistical
//! guess over the whole text breaks ties. A short file can still fool any
//! guess, so the caller may name the encoding instead.
//!
//! ```
//! use xiangqi_records::encoding::{self, Encoding};
//!
//! let (gbk, _, _) = encoding_rs::GBK.encode("炮二平五 马８进７");
//! let decoded = encoding::decode(&gbk, None);
//! assert_eq!(decoded.encoding, Encoding::Gb18030);
//! assert_eq!(decoded.text, "炮二平五 马８进７");
//! ```

use std::{borrow::Cow, fmt, str::FromStr};

/// The encodings records are found in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Encoding {
    Utf8,
    /// GB18030, which reads GBK and GB2312 files as well.
    Gb18030,
    Big5,
    Utf16Le,
    Utf16Be,
}

impl Encoding {
    /// Every encoding, in the order a chooser offers them.
    pub const ALL: [Encoding; 5] =
        [Encoding::Utf8, Encoding::Gb18030, Encoding::Big5, Encoding::Utf16Le, Encoding::Utf16Be];

    /// The encoding's label, as [`FromStr`] reads it back.
    pub fn label(self) -> &'static str {
        match self {
            Encoding::Utf8 => "utf-8",
            Encoding::Gb18030 => "gb18030",
            Encoding::Big5 => "big5",
            Encoding::Utf16Le => "utf-16le",
            Encoding::Utf16Be => "utf-16be",
        }
    }

    fn codec(self) -> &'static encoding_rs::Encoding {
        match self {
            Encoding::Utf8 => encoding_rs::UTF_8,
            Encoding::Gb18030 => encoding_rs::GB18030,
            Encoding::Big5 => encoding_rs::BIG5,
            Encoding::Utf16Le => encoding_rs::UTF_16LE,
            Encoding::Utf16Be => encoding_rs::UTF_16BE,
        }
    }
}

impl fmt::Display for Encoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

/// An encoding label this crate does not read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown encoding {0:?}: utf-8, gb18030 (or gbk, gb2312), big5, utf-16le or utf-16be")]
pub struct UnknownEncoding(pub String);

impl FromStr for Encoding {
    type Err = UnknownEncoding;

    /// Reads a label as the WHATWG Encoding Standard names them (`gbk`,
    /// `gb2312`, `big5-hkscs`, `utf8`...), kept to the encodings of [`Encoding`].
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let codec = encoding_rs::Encoding::for_label(s.trim().as_bytes());
        let found = match codec {
            Some(c) if c == encoding_rs::UTF_8 => Encoding::Utf8,
            Some(c) if c == encoding_rs::GBK || c == encoding_rs::GB18030 => Encoding::Gb18030,
            Some(c) if c == encoding_rs::BIG5 => Encoding::Big5,
            Some(c) if c == encoding_rs::UTF_16LE => Encoding::Utf16Le,
            Some(c) if c == encoding_rs::UTF_16BE => Encoding::Utf16Be,
            _ => return Err(UnknownEncoding(s.to_string())),
        };
        Ok(found)
    }
}

/// A text decoded, with the encoding it was read in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decoded<'a> {
    pub text: Cow<'a, str>,
    pub encoding: Encoding,
    /// Bytes that were not valid in that encoding (each became U+FFFD).
    pub malformed: bool,
}

/// Decodes a text record in `chosen`, or in the encoding found as the module
/// says when none is chosen. A byte-order mark is dropped from the text.
pub fn decode(bytes: &[u8], chosen: Option<Encoding>) -> Decoded<'_> {
    let encoding = chosen.unwrap_or_else(|| detect(bytes));
    let (text, _, malformed) = encoding.codec().decode(bytes);
    Decoded { text, encoding, malformed }
}

/// The encoding a text record is most likely in.
pub fn detect(bytes: &[u8]) -> Encoding {
    match encoding_rs::Encoding::for_bom(bytes) {
        Some((c, _)) if c == encoding_rs::UTF_16LE => return Encoding::Utf16Le,
        Some((c, _)) if c == encoding_rs::UTF_16BE => return Encoding::Utf16Be,
        Some(_) => return Encoding::Utf8,
        None => {}
    }
    // Before UTF-8: zeros are valid UTF-8, and text never holds them.
    if let Some(wide) = utf16_without_bom(bytes) {
        return wide;
    }
    if std::str::from_utf8(bytes).is_ok() {
        return Encoding::Utf8;
    }
    let gb = weigh(bytes, Encoding::Gb18030);
    let big5 = weigh(bytes, Encoding::Big5);
    match gb.cmp(&big5) {
        std::cmp::Ordering::Greater => Encoding::Gb18030,
        std::cmp::Ordering::Less => Encoding::Big5,
        std::cmp::Ordering::Equal => {
            let mut detector = chardetng::EncodingDetector::new();
            detector.feed(bytes, true);
            let guess = detector.guess(None, false);
            if guess == encoding_rs::BIG5 { Encoding::Big5 } else { Encoding::Gb18030 }
        }
    }
}

/// UTF-16 without a byte-order mark, as some Windows programs write it: a
/// record's ASCII (tags, digits, brackets) puts a zero in every other byte.
fn utf16_without_bom(bytes: &[u8]) -> Option<Encoding> {
    let sample = &bytes[..bytes.len().min(4096) & !1];
    if sample.len() < 16 {
        return None;
    }
    let zeros = |start: usize| sample.iter().skip(start).step_by(2).filter(|&&b| b == 0).count();
    let half = sample.len() / 2;
    let (even, odd) = (zeros(0), zeros(1));
    // Text in a byte encoding holds no zeros at all; a fifth of the
    // characters in ASCII is far less than any record has.
    if odd * 5 > half && even * 50 < half {
        Some(Encoding::Utf16Le)
    } else if even * 5 > half && odd * 50 < half {
        Some(Encoding::Utf16Be)
    } else {
        None
    }
}

/// How well a decoding reads as a game record: one point for each glyph
/// records use, less ten for each byte the encoding cannot read.
fn weigh(bytes: &[u8], encoding: Encoding) -> i64 {
    let (text, _) = encoding.codec().decode_without_bom_handling(bytes);
    text.chars()
        .map(|c| match c {
            '\u{fffd}' => -10,
            c if RECORD_GLYPHS.contains(c) => 1,
            _ => 0,
        })
        .sum()
}

/// The glyphs of game records, in simplified and traditional forms: pieces,
/// Chinese numerals, move verbs, positions in a file, sides and results,
/// and the words of common tags.
const RECORD_GLYPHS: &str = "车馬马炮砲相象仕士帅帥将將兵卒俥傌包車\
    一二三四五六七八九十进進退平前中后後\
    红紅黑方胜勝负負和局先手对對赛賽事日期地点點时時间間结結果评評论論开開";

#[cfg(test)]
mod tests {
    use super::*;

    const RECORD: &str = "[Event \"全国象棋个人赛\"]\n[Red \"胡荣华\"]\n[Black \"柳大华\"]\n\
        1. 炮二平五 马８进７ 2. 马二进三 车９平８ 1-0\n";

    fn encoded(text: &str, codec: &'static encoding_rs::Encoding) -> Vec<u8> {
        let (bytes, _, unmappable) = codec.encode(text);
        assert!(!unmappable, "{} cannot write the test record", codec.name());
        bytes.into_owned()
    }

    #[test]
    fn a_gbk_record_is_read_as_gb18030() {
        let bytes = encoded(RECORD, encoding_rs::GBK);
        let decoded = decode(&bytes, None);
        assert_eq!(
            (decoded.encoding, decoded.text.as_ref(), decoded.malformed),
            (Encoding::Gb18030, RECORD, false)
        );
    }

    #[test]
    fn a_big5_record_in_traditional_glyphs_is_read_as_big5() {
        let traditional = "[Event \"全國象棋個人賽\"]\n[Red \"胡榮華\"]\n[Black \"柳大華\"]\n\
            1. 炮二平五 馬８進７ 2. 馬二進三 車９平８ 1-0\n";
        let bytes = encoded(traditional, encoding_rs::BIG5);
        let decoded = decode(&bytes, None);
        assert_eq!((decoded.encoding, decoded.text.as_ref()), (Encoding::Big5, traditional));
    }

    #[test]
    fn a_short_record_is_told_apart_by_its_move_glyphs() {
        for (text, codec, expected) in [
            ("炮二平五", encoding_rs::GBK, Encoding::Gb18030),
            ("炮二平五", encoding_rs::BIG5, Encoding::Big5),
            ("車九進一", encoding_rs::BIG5, Encoding::Big5),
            ("车九进一", encoding_rs::GBK, Encoding::Gb18030),
        ] {
            assert_eq!(detect(&encoded(text, codec)), expected, "{text} in {}", codec.name());
        }
    }

    #[test]
    fn byte_order_marks_and_plain_utf8_decide_at_once() {
        assert_eq!(detect(RECORD.as_bytes()), Encoding::Utf8);
        let mut bom = vec![0xef, 0xbb, 0xbf];
        bom.extend_from_slice(RECORD.as_bytes());
        assert_eq!(decode(&bom, None).text, RECORD, "the mark is not part of the text");
        let wide: Vec<u8> = RECORD.encode_utf16().flat_map(u16::to_le_bytes).collect();
        assert_eq!(detect(&wide), Encoding::Utf16Le, "UTF-16 without a mark is seen by its zeros");
        assert_eq!(decode(&wide, None).text, RECORD);
        let mut marked = vec![0xff, 0xfe];
        marked.extend_from_slice(&wide);
        assert_eq!(decode(&marked, None).text, RECORD);
    }

    #[test]
    fn a_chosen_encoding_wins_over_the_guess() {
        let bytes = encoded("炮二平五", encoding_rs::GBK);
        let forced = decode(&bytes, Some(Encoding::Big5));
        assert_eq!(forced.encoding, Encoding::Big5);
        assert_ne!(forced.text, "炮二平五");
    }

    #[test]
    fn labels_read_back_and_unknown_ones_are_named() {
        for e in Encoding::ALL {
            assert_eq!(e.label().parse::<Encoding>(), Ok(e));
        }
        assert_eq!("GBK".parse::<Encoding>(), Ok(Encoding::Gb18030));
        assert_eq!("gb2312".parse::<Encoding>(), Ok(Encoding::Gb18030));
        assert_eq!("big5-hkscs".parse::<Encoding>(), Ok(Encoding::Big5));
        assert!("shift_jis".parse::<Encoding>().unwrap_err().to_string().contains("shift_jis"));
    }
}
