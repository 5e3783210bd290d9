//! A small PNG chart for the e-mail of a scheduled report (mail programs show images, not
//! spreadsheets' charts): a line over the periods or bars by group, the span before as a grey
//! line, drawn with plotters on a bitmap and encoded with `png`. The figures themselves are in the
//! message's table and in the file.

use plotters::prelude::*;

/// Width and height in pixels.
pub const SIZE: (u32, u32) = (640, 280);
const MARGIN: i32 = 16;
const BRAND: RGBColor = RGBColor(0, 113, 188);
const GREY: RGBColor = RGBColor(170, 170, 170);

/// What to draw.
pub enum Series<'a> {
    /// The value of each period, and the same periods of the span before.
    Line {
        current: &'a [i64],
        previous: &'a [i64],
    },
    /// The value of each group, largest first.
    Bars(&'a [i64]),
}

/// The chart as PNG bytes; `None` when there is nothing to draw or drawing failed.
pub fn png(series: Series<'_>) -> Option<Vec<u8>> {
    let (w, h) = SIZE;
    let mut rgb = vec![255u8; (w * h * 3) as usize];
    {
        let root = BitMapBackend::with_buffer(&mut rgb, SIZE).into_drawing_area();
        root.fill(&WHITE).ok()?;
        let (left, top, right, bottom) = (MARGIN, MARGIN, w as i32 - MARGIN, h as i32 - MARGIN);
        let all: Vec<i64> = match &series {
            Series::Line { current, previous } => {
                current.iter().chain(previous.iter()).copied().collect()
            }
            Series::Bars(v) => v.to_vec(),
        };
        let max = all.iter().copied().max().unwrap_or(0).max(1) as f64;
        let y = |v: i64| bottom - ((v.max(0) as f64 / max) * f64::from(bottom - top)) as i32;
        root.draw(&PathElement::new(
            vec![(left, bottom), (right, bottom)],
            BLACK,
        ))
        .ok()?;
        match series {
            Series::Line { current, previous } => {
                let n = current.len().max(previous.len()).max(2);
                let x = |i: usize| left + (i as i32) * (right - left) / (n as i32 - 1);
                let path = |v: &[i64]| -> Vec<(i32, i32)> {
                    v.iter().enumerate().map(|(i, v)| (x(i), y(*v))).collect()
                };
                if previous.len() > 1 {
                    root.draw(&PathElement::new(path(previous), GREY.stroke_width(2)))
                        .ok()?;
                }
                if current.is_empty() {
                    return None;
                }
                root.draw(&PathElement::new(path(current), BRAND.stroke_width(3)))
                    .ok()?;
                for p in path(current) {
                    root.draw(&Circle::new(p, 3, BRAND.filled())).ok()?;
                }
            }
            Series::Bars(values) => {
                if values.is_empty() {
                    return None;
                }
                let n = values.len() as i32;
                let slot = (right - left) / n;
                for (i, v) in values.iter().enumerate() {
                    let x0 = left + i as i32 * slot + slot / 8;
                    let x1 = left + (i as i32 + 1) * slot - slot / 8;
                    root.draw(&Rectangle::new(
                        [(x0, y(*v)), (x1.max(x0 + 1), bottom)],
                        BRAND.filled(),
                    ))
                    .ok()?;
                }
            }
        }
        root.present().ok()?;
    }
    let mut out = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut out, w, h);
        encoder.set_color(png::ColorType::Rgb);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder.write_header().ok()?;
        writer.write_image_data(&rgb).ok()?;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn charts_are_pngs_with_the_series_drawn() {
        let line = png(Series::Line {
            current: &[10, 30, 20],
            previous: &[5, 5, 5],
        })
        .unwrap();
        assert_eq!(&line[..8], b"\x89PNG\r\n\x1a\n");
        let bars = png(Series::Bars(&[300, 200, 100])).unwrap();
        assert_eq!(&bars[..8], b"\x89PNG\r\n\x1a\n");
        assert_ne!(line, bars);
        // Decoded, the bars' colour is there.
        let decoder = png::Decoder::new(std::io::Cursor::new(bars));
        let mut reader = decoder.read_info().unwrap();
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        reader.next_frame(&mut buf).unwrap();
        assert!(buf.chunks(3).any(|p| p == [0, 113, 188]));
        assert!(png(Series::Bars(&[])).is_none());
    }
}
