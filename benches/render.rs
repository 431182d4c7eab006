//! Board pictures: time to draw and encode one, and the size of the file.
//! Targets (brief): under 5 ms and under 60 KB for a ~640 px wide picture.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use damas::engine::{explain, Color, Position, Variant};
use damas::render::{encode_png, render_image, render_png, BoardView, Caption, Renderer};

fn caption() -> Caption {
    Caption {
        title: "Spanish draughts".into(),
        players: "alice (White) vs bob (Black)".into(),
        status: "Black to move · move 18 · no capture for 3 moves".into(),
    }
}

fn bench(c: &mut Criterion) {
    // Built once per process in the bot; not part of a picture's cost.
    let _ = Renderer::shared().expect("renderer");
    let start = Position::start(Variant::Spanish);
    let before = Position::from_fen(
        Variant::Spanish,
        "B:W1,3,4,9,10,15,17:B22,24,25,27-30,32,K20",
    )
    .expect("valid FEN");
    let capture = before.parse_move("20x6x13").expect("legal");
    let mid = before.apply(&capture);
    let quantity = Position::from_fen(Variant::Spanish, "B:W1,5,7,8,13:B22,24-26,29-32,K2,K16")
        .expect("valid FEN");
    let exp = explain(&quantity, None);

    let mut start_view = BoardView::new(&start, Color::White);
    start_view.caption = caption();
    let mut mid_view = BoardView::new(&mid, Color::White);
    mid_view.last_move = Some(capture);
    mid_view.highlight_captures = true;
    mid_view.caption = caption();
    let mut explain_view = BoardView::new(&quantity, Color::Black);
    explain_view.explanation = Some(&exp);
    explain_view.caption = caption();

    for (name, view) in [
        ("start", &start_view),
        ("mid-game capture", &mid_view),
        ("explanation", &explain_view),
    ] {
        let png = render_png(view).expect("render");
        println!(
            "render/{name}: {} bytes ({:.1} KB)",
            png.len(),
            png.len() as f64 / 1024.0
        );
        c.bench_function(&format!("render_png/{name}"), |b| {
            b.iter(|| render_png(black_box(view)).expect("render"))
        });
    }
    c.bench_function("draw only/mid-game capture", |b| {
        b.iter(|| render_image(black_box(&mid_view)).expect("render"))
    });
    let img = render_image(&mid_view).expect("render");
    c.bench_function("encode only/mid-game capture", |b| {
        b.iter(|| encode_png(black_box(&img)).expect("encode"))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
