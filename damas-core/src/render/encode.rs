//! PNG encoding with a palette: the picture is a few flat colours plus their anti-aliased
//! edges, so 256 colours show it without visible loss, and one byte per pixel instead of three
//! makes the file about three times smaller for the same deflate effort.
//!
//! The palette is chosen once, from sample pictures drawn when the renderer is built, with a
//! table giving the nearest palette colour of every colour group; encoding a picture is then a
//! table lookup per pixel and a deflate. (Choosing a palette per picture cost more than the
//! deflate itself.) The same colour always gets the same index, so a picture's board does not
//! change with its caption.

use super::RenderError;
use image::RgbImage;

/// Colours are grouped by their top 5 bits per channel (32 768 groups).
const GROUPS: usize = 1 << 15;

#[inline(always)]
fn group(r: u8, g: u8, b: u8) -> usize {
    ((r as usize >> 3) << 10) | ((g as usize >> 3) << 5) | (b as usize >> 3)
}

/// The middle colour of a group.
fn group_center(g: usize) -> [u8; 3] {
    [
        (((g >> 10) & 31) << 3 | 4) as u8,
        (((g >> 5) & 31) << 3 | 4) as u8,
        ((g & 31) << 3 | 4) as u8,
    ]
}

/// At most 256 colours and, for every colour group, the index of its nearest palette colour.
pub struct Palette {
    colors: Vec<[u8; 3]>,
    index_of_group: Vec<u8>,
}

impl Palette {
    /// The palette that best shows the sample pictures: each colour group they use stands for
    /// the average of its pixels; the 256 most frequent groups are kept, and every other group
    /// (rare edge pixels, or colours the samples never showed) takes the nearest kept colour.
    pub fn from_samples(samples: &[RgbImage]) -> Palette {
        let mut count = vec![0u64; GROUPS];
        let mut sum = vec![[0u64; 3]; GROUPS];
        for img in samples {
            for px in img.as_raw().chunks_exact(3) {
                let g = group(px[0], px[1], px[2]);
                count[g] += 1;
                let s = &mut sum[g];
                s[0] += px[0] as u64;
                s[1] += px[1] as u64;
                s[2] += px[2] as u64;
            }
        }
        let mut used: Vec<usize> = (0..GROUPS).filter(|&g| count[g] > 0).collect();
        used.sort_unstable_by(|&a, &b| count[b].cmp(&count[a]).then(a.cmp(&b)));
        let average = |g: usize| {
            let n = count[g];
            if n == 0 {
                return group_center(g);
            }
            let s = sum[g];
            [
                ((s[0] + n / 2) / n) as u8,
                ((s[1] + n / 2) / n) as u8,
                ((s[2] + n / 2) / n) as u8,
            ]
        };
        let kept = used.len().min(256);
        let mut colors: Vec<[u8; 3]> = used[..kept].iter().map(|&g| average(g)).collect();
        if colors.is_empty() {
            colors.push([0, 0, 0]);
        }
        let mut index_of_group = vec![0u8; GROUPS];
        let mut is_kept = vec![false; GROUPS];
        for (i, &g) in used[..kept].iter().enumerate() {
            index_of_group[g] = i as u8;
            is_kept[g] = true;
        }
        for g in 0..GROUPS {
            if is_kept[g] {
                continue;
            }
            let c = average(g);
            let nearest = colors
                .iter()
                .enumerate()
                .min_by_key(|(_, p)| {
                    let d = |i: usize| (p[i] as i32 - c[i] as i32).pow(2);
                    d(0) + d(1) + d(2)
                })
                .map(|(i, _)| i)
                .unwrap_or(0);
            index_of_group[g] = nearest as u8;
        }
        Palette {
            colors,
            index_of_group,
        }
    }

    /// The palette's colours, at most 256.
    pub fn colors(&self) -> &[[u8; 3]] {
        &self.colors
    }

    /// The picture's pixels as indices into [`Palette::colors`], row by row.
    pub fn indices(&self, img: &RgbImage) -> Vec<u8> {
        let raw = img.as_raw();
        let mut indices = Vec::with_capacity(raw.len() / 3);
        // Most of the picture is long runs of one colour: look a colour up once per run.
        let mut last = ([0u8; 3], self.index_of_group[0]);
        for px in raw.chunks_exact(3) {
            let px = [px[0], px[1], px[2]];
            if px != last.0 {
                last = (px, self.index_of_group[group(px[0], px[1], px[2])]);
            }
            indices.push(last.1);
        }
        indices
    }

    /// Encodes a picture as an 8-bit palette PNG (fast deflate, Sub filter: measured the best
    /// size for the time on these pictures).
    pub fn encode(&self, img: &RgbImage) -> Result<Vec<u8>, RenderError> {
        self.encode_with(img, png::DeflateCompression::Level(1), png::Filter::Sub)
    }

    /// Encodes with a chosen deflate and filter (for measuring).
    pub fn encode_with(
        &self,
        img: &RgbImage,
        deflate: png::DeflateCompression,
        filter: png::Filter,
    ) -> Result<Vec<u8>, RenderError> {
        let indices = self.indices(img);
        let mut out = Vec::with_capacity(48 * 1024);
        let err = |e: png::EncodingError| RenderError::Encode(e.to_string());
        let mut enc = png::Encoder::new(&mut out, img.width(), img.height());
        enc.set_color(png::ColorType::Indexed);
        enc.set_depth(png::BitDepth::Eight);
        enc.set_palette(self.colors.concat());
        enc.set_filter(filter);
        enc.set_deflate_compression(deflate);
        let mut writer = enc.write_header().map_err(err)?;
        writer.write_image_data(&indices).map_err(err)?;
        writer.finish().map_err(err)?;
        Ok(out)
    }
}
