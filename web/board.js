// The board page's script: shows the game's state (fetched as JSON, the board as SVG drawn
// by the server), follows its changes (Server-Sent Events), and lets a player move by
// clicking or tapping, with the keyboard, or by typing the notation. It draws nothing and
// decides nothing: the SVG carries the marks it turns on and off, the server checks every
// move. Its player's key is the URL's fragment, sent only in a request header; inside
// Discord (the Activity's page, marked data-activity) the channel and the key come from the
// sign-in (activity.js) instead, as a "damas:session" event.
"use strict";
(() => {
  const page = document.getElementById("page");
  if ("activity" in page.dataset) {
    document.addEventListener("damas:session", (event) => follow(event.detail.channel, event.detail.key), {
      once: true,
    });
  } else {
    const key = location.hash.length > 1 ? decodeURIComponent(location.hash.slice(1)) : "";
    follow(page.dataset.channel, key);
  }

  function follow(channel, key) {
    const headers = key ? { Authorization: "Bearer " + key } : {};
    const $ = (id) => document.getElementById(id);
    const board = $("board");

    let state = null;
    // The move being entered: its first square, the landings clicked so far and the moves
    // that still fit them.
    let from = null;
    let step = 0;
    let fitting = [];
    let cursor = null;
    let fetching = null;
    let again = false;

    function text(id, value) {
      $(id).textContent = value || "";
    }

    async function refresh() {
      // One fetch at a time; a change during one fetches once more after it.
      if (fetching) {
        again = true;
        return fetching;
      }
      fetching = (async () => {
        do {
          again = false;
          try {
            const response = await fetch(`/board/${channel}/state`, { headers, cache: "no-store" });
            const body = await response.json();
            if (response.ok) {
              show(body);
            } else {
              text("message", body.message);
            }
          } catch (e) {
            $("lost").hidden = false;
          }
        } while (again);
        fetching = null;
      })();
      return fetching;
    }

    function show(next) {
      const changed = !state || state.revision !== next.revision || state.game_id !== next.game_id;
      state = next;
      board.innerHTML = next.svg;
      board.dataset.revision = String(next.revision);
      board.dataset.ply = String(next.ply);
      board.dataset.viewer = next.viewer;
      text("title", next.title);
      text("players", next.players);
      text("status", next.status);
      text("last-move", next.last_move);
      text("clock", next.clock);
      text("note", next.note);
      $("typed").hidden = next.moves.length === 0;
      // A player's buttons while the game is under way: resign, offer a draw (or accept the
      // opponent's), decline the opponent's offer.
      $("actions").hidden = next.viewer !== "player" || next.over;
      const theirOffer = next.draw_offered && !next.draw_offered_by_you;
      const draw = $("draw");
      draw.textContent = theirOffer ? draw.dataset.accept : draw.dataset.offer;
      draw.disabled = next.draw_offered_by_you;
      $("decline-draw").hidden = !theirOffer;
      if (changed) {
        clearEntry();
      } else {
        marks();
      }
    }

    function squares(cls) {
      return board.querySelectorAll(`.${cls}`);
    }

    function mark(cls, number, on) {
      const el = board.querySelector(`.${cls}[data-sq="${number}"]`);
      if (el) el.setAttribute("visibility", on ? "visible" : "hidden");
    }

    function clearEntry() {
      from = null;
      step = 0;
      fitting = [];
      $("choices").hidden = true;
      $("choice-list").replaceChildren();
      marks();
    }

    // Turns on what the entry so far shows: the chosen piece's square, and a dot on each
    // square the next click may land on.
    function marks() {
      for (const cls of ["sel", "dot", "cur"]) {
        squares(cls).forEach((el) => el.setAttribute("visibility", "hidden"));
      }
      if (from !== null) {
        mark("sel", from, true);
        for (const m of fitting) {
          if (m.path.length > step) mark("dot", m.path[step], true);
        }
      }
      if (cursor !== null) mark("cur", cursor, true);
    }

    function choose(n) {
      if (!state || state.moves.length === 0) return;
      const starting = state.moves.filter((m) => m.from === n);
      if (from === null || (step === 0 && starting.length > 0)) {
        if (starting.length === 0) return;
        from = n;
        step = 0;
        fitting = starting;
        $("choices").hidden = true;
        marks();
        return;
      }
      const next = fitting.filter((m) => m.path[step] === n);
      if (next.length === 0) {
        clearEntry();
        return;
      }
      step += 1;
      fitting = next;
      const ended = fitting.filter((m) => m.path.length === step);
      if (ended.length === fitting.length) {
        if (ended.length === 1) {
          play(ended[0].notation);
        } else {
          ask(ended);
        }
      } else if (ended.length > 0) {
        ask(fitting);
      }
      marks();
    }

    // Several moves fit the squares clicked (the same landings, other pieces taken): the
    // player says which.
    function ask(moves) {
      const list = $("choice-list");
      list.replaceChildren();
      for (const m of moves) {
        const button = document.createElement("button");
        button.type = "button";
        button.textContent = m.label;
        button.dataset.notation = m.notation;
        button.addEventListener("click", () => play(m.notation));
        list.appendChild(button);
      }
      $("choices").hidden = false;
      list.firstChild.focus();
    }

    async function play(notation) {
      text("message", "");
      try {
        const response = await fetch(`/board/${channel}/move`, {
          method: "POST",
          headers: Object.assign({ "Content-Type": "text/plain" }, headers),
          body: notation,
        });
        const body = await response.json();
        if (!response.ok) text("message", body.message);
      } catch (e) {
        $("lost").hidden = false;
      }
      clearEntry();
      refresh();
    }

    // Resign, draw and decline, as the game's buttons in Discord; the server checks them.
    async function act(what) {
      text("message", "");
      try {
        const response = await fetch(`/board/${channel}/${what}`, { method: "POST", headers });
        const body = await response.json();
        if (!response.ok || body.message) text("message", body.message);
      } catch (e) {
        $("lost").hidden = false;
      }
      refresh();
    }

    // Resigning takes a second click within a few seconds: a slip of the finger ends no game.
    let resignArmed = null;
    $("resign").addEventListener("click", () => {
      const button = $("resign");
      if (resignArmed === null) {
        button.textContent = button.dataset.confirm;
        resignArmed = setTimeout(() => {
          resignArmed = null;
          button.textContent = button.dataset.label;
        }, 5000);
        return;
      }
      clearTimeout(resignArmed);
      resignArmed = null;
      button.textContent = button.dataset.label;
      act("resign");
    });
    $("draw").addEventListener("click", () => act("draw"));
    $("decline-draw").addEventListener("click", () => act("decline-draw"));

    board.addEventListener("click", (event) => {
      const hit = event.target.closest(".hit");
      if (!hit) return;
      cursor = Number(hit.dataset.sq);
      choose(cursor);
    });

    // The keyboard: the arrows move a frame over the playing squares, Enter or Space
    // chooses the square under it, Escape starts the move again.
    function cell(n) {
      const hit = board.querySelector(`.hit[data-sq="${n}"]`);
      return hit ? [Number(hit.dataset.col), Number(hit.dataset.row)] : null;
    }

    function nearest(col, row, dc, dr) {
      let best = null;
      let bestCost = Infinity;
      for (const hit of squares("hit")) {
        const c = Number(hit.dataset.col);
        const r = Number(hit.dataset.row);
        const along = dr !== 0 ? (r - row) * dr : (c - col) * dc;
        if (along <= 0) continue;
        const across = dr !== 0 ? Math.abs(c - col) : Math.abs(r - row);
        const cost = along * 10 + across;
        if (cost < bestCost) {
          bestCost = cost;
          best = Number(hit.dataset.sq);
        }
      }
      return best;
    }

    board.addEventListener("keydown", (event) => {
      const moves = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };
      if (event.key in moves) {
        event.preventDefault();
        if (cursor === null) {
          cursor = from !== null ? from : Number(squares("hit")[0].dataset.sq);
        } else {
          const [col, row] = cell(cursor);
          const [dc, dr] = moves[event.key];
          const next = nearest(col, row, dc, dr);
          if (next !== null) cursor = next;
        }
        marks();
      } else if ((event.key === "Enter" || event.key === " ") && cursor !== null) {
        event.preventDefault();
        choose(cursor);
      } else if (event.key === "Escape") {
        clearEntry();
      }
    });

    $("typed").addEventListener("submit", (event) => {
      event.preventDefault();
      const input = $("typed-move");
      const notation = input.value.trim();
      if (notation) {
        input.value = "";
        play(notation);
      }
    });

    const events = new EventSource(`/board/${channel}/events`);
    events.addEventListener("change", () => refresh());
    events.addEventListener("open", () => {
      $("lost").hidden = true;
    });
    events.addEventListener("error", () => {
      $("lost").hidden = false;
    });
    refresh();
  }
})();
