//! Just enough of PNG to read Chromium's screenshots: 8-bit RGB or RGBA, not interlaced
//! (what it writes), inflated with flate2, each row unfiltered.

use std::io::Read;

/// A decoded image: its size and its pixels as RGB, row by row.
pub struct Image {
    pub width: usize,
    pub height: usize,
    pub rgb: Vec<[u8; 3]>,
}

/// Decodes the PNG `bytes`; panics on anything else.
pub fn decode(bytes: &[u8]) -> Image {
    assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"), "not a PNG file");
    let mut at = 8;
    let (mut width, mut height, mut channels) = (0usize, 0usize, 0usize);
    let mut data = Vec::new();
    while at + 8 <= bytes.len() {
        let len = u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
        let kind = &bytes[at + 4..at + 8];
        let body = &bytes[at + 8..at + 8 + len];
        match kind {
            b"IHDR" => {
                width = u32::from_be_bytes(body[0..4].try_into().unwrap()) as usize;
                height = u32::from_be_bytes(body[4..8].try_into().unwrap()) as usize;
                assert_eq!(body[8], 8, "8 bits a channel");
                channels = match body[9] {
                    2 => 3,
                    6 => 4,
                    other => panic!("colour type {other}: RGB or RGBA expected"),
                };
                assert_eq!(body[12], 0, "not interlaced");
            }
            b"IDAT" => data.extend_from_slice(body),
            b"IEND" => break,
            _ => {}
        }
        at += 12 + len;
    }
    let mut raw = Vec::new();
    flate2::read::ZlibDecoder::new(&data[..])
        .read_to_end(&mut raw)
        .expect("inflate the image data");
    let stride = width * channels;
    assert_eq!(raw.len(), height * (stride + 1), "the image data's size");
    let mut pixels = vec![0u8; height * stride];
    for y in 0..height {
        let filter = raw[y * (stride + 1)];
        let line = &raw[y * (stride + 1) + 1..(y + 1) * (stride + 1)];
        for x in 0..stride {
            let a = if x >= channels {
                pixels[y * stride + x - channels]
            } else {
                0
            };
            let b = if y > 0 {
                pixels[(y - 1) * stride + x]
            } else {
                0
            };
            let c = if y > 0 && x >= channels {
                pixels[(y - 1) * stride + x - channels]
            } else {
                0
            };
            let predicted = match filter {
                0 => 0,
                1 => a,
                2 => b,
                3 => ((u16::from(a) + u16::from(b)) / 2) as u8,
                4 => paeth(a, b, c),
                other => panic!("filter {other}"),
            };
            pixels[y * stride + x] = line[x].wrapping_add(predicted);
        }
    }
    Image {
        width,
        height,
        rgb: pixels
            .chunks(channels)
            .map(|p| [p[0], p[1], p[2]])
            .collect(),
    }
}

fn paeth(a: u8, b: u8, c: u8) -> u8 {
    let p = i16::from(a) + i16::from(b) - i16::from(c);
    let (pa, pb, pc) = (
        (p - i16::from(a)).abs(),
        (p - i16::from(b)).abs(),
        (p - i16::from(c)).abs(),
    );
    if pa <= pb && pa <= pc {
        a
    } else if pb <= pc {
        b
    } else {
        c
    }
}
