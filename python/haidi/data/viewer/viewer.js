"use strict";
(function () {
  const D = JSON.parse(document.getElementById("haidi-data").textContent);
  const W = D.winds, G = D.glyphs, BACK = "\u{1F02B}";
  const $ = (id) => document.getElementById(id);
  const cache = {};
  let hand = 0, step = 0, view = "all", follow = 0, text = false;

  // The states of hand i, rebuilt from the differences the page holds.
  function states(i) {
    if (!cache[i]) {
      let cur = {};
      cache[i] = D.hands[i].steps.map((s) => {
        cur = Object.assign({}, cur);
        const d = s[0];
        for (const k in d) {
          if (k[0] === "+") cur[k.slice(1)] = cur[k.slice(1)].concat(d[k]);
          else cur[k] = d[k];
        }
        return cur;
      });
    }
    return cache[i];
  }
  function el(tag, cls, txt) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (txt !== undefined) e.textContent = txt;
    return e;
  }
  function tile(t, cls) {
    const e = el("span", "tile" + (cls ? " " + cls : ""));
    if (t === null) {
      e.textContent = text ? "##" : BACK;
      e.title = "hidden";
      e.classList.add("back");
    } else {
      e.textContent = text ? t : G[t] || t;
      e.title = t;
      e.dataset.t = t;
    }
    return e;
  }
  function tiles(list, cls) {
    const box = el("span", "tiles" + (cls ? " " + cls : ""));
    list.forEach((t) => box.appendChild(tile(t)));
    return box;
  }
  // Compact notation ("123m55z") as tiles.
  function split(text) {
    const out = [];
    let digits = "";
    for (const ch of text || "") {
      if (ch >= "0" && ch <= "9") digits += ch;
      else { for (const d of digits) out.push(d + ch); digits = ""; }
    }
    return out;
  }
  function seatName(s) {
    return "seat " + s + " " + W[s] + (s === 0 ? " (dealer)" : "");
  }
  function meldTiles(m) {
    const t = m.tile;
    if (m.type === "chow") {
      const n = +t[0], suit = t[1];
      return [n, n + 1, n + 2].map((k) => k + suit);
    }
    const n = m.type === "pung" ? 3 : 4;
    return Array(n).fill(t);
  }
  function row(label, content) {
    const r = el("div", "row");
    r.appendChild(el("span", "label", label));
    r.appendChild(content);
    return r;
  }
  function render() {
    const H = D.hands[hand], S = states(hand), st = S[step], last = step === S.length - 1;
    document.body.classList.toggle("text", text);
    $("hand").value = String(hand);
    $("where").textContent = "hand " + (hand + 1) + " of " + D.hands.length + " (" + H.rules +
      (H.seed !== null && H.seed !== undefined ? ", seed " + H.seed : "") + "), step " + step + " of " + (S.length - 1) +
      (st.done ? ": the hand is over" : "");
    const table = $("table");
    table.textContent = "";
    for (let s = 0; s < 4; s++) {
      const open = view === "all" || view === String(s);
      const p = el("div", "seat" + (st.ta.includes(s) ? " turn" : ""));
      p.id = "seat-" + s;
      const h2 = el("h2");
      h2.appendChild(el("span", "", seatName(s) + (st["oh" + s] ? " · 明听 (open hand)" : "") +
        (st.ta.includes(s) ? " · to act: " + (st["dec" + s] || "") : "")));
      if (last && H.payments) {
        const v = H.payments[s];
        h2.appendChild(el("span", "pay", (v > 0 ? "+" : "") + v));
      }
      p.appendChild(h2);
      const handBox = el("span", "tiles hand");
      if (open) {
        const held = split(st["h" + s]), dr = st["dr" + s];
        if (dr && held.indexOf(dr) >= 0) held.splice(held.indexOf(dr), 1);
        held.forEach((t) => handBox.appendChild(tile(t)));
        if (dr) handBox.appendChild(tile(dr, "drawn"));
      } else {
        // A hand laid open (明听) shows its tiles as laid; the tiles drawn since are backs.
        const laid = split(st["oh" + s]);
        laid.forEach((t) => handBox.appendChild(tile(t, "open")));
        const n = st["n" + s] === null ? split(st["h" + s]).length : st["n" + s];
        for (let k = laid.length; k < n; k++) handBox.appendChild(tile(null));
      }
      p.appendChild(row("hand", handBox));
      const melds = el("span", "tiles melds");
      st["m" + s].forEach((m) => {
        const box = el("span", "meld");
        box.dataset.type = m.type;
        const hide = m.hidden && !open;
        let marked = false;
        meldTiles(m).forEach((t) => {
          const sup = !marked && m.claimed && t === m.claimed && m.from !== s;
          if (sup) marked = true;
          box.appendChild(hide ? tile(null) : tile(t, sup ? "sup" : ""));
        });
        // A concealed kong comes from no seat (its `from` is null).
        const fed = m.from !== null && m.from !== undefined && m.from !== s;
        box.title = m.type.replace("_", " ") + (fed ? ", from " + seatName(m.from) : "");
        if (fed) box.appendChild(el("span", "from", "←" + W[m.from]));
        melds.appendChild(box);
      });
      p.appendChild(row("melds", melds));
      const fl = open ? st["f" + s] : st["fp" + s];
      if (fl.length) p.appendChild(row("flowers", tiles(fl, "flowers")));
      const ds = el("span", "tiles discards");
      const claimed = st["c" + s], d = st["d" + s];
      d.forEach((t, k) => {
        let cls = claimed.includes(k) ? "claimed" : "";
        if (st.offer && st.offer[1] === s && st.offer[2] === "discard" && k === d.length - 1) cls += " last";
        ds.appendChild(tile(t, cls));
      });
      p.appendChild(row("discards", ds));
      table.appendChild(p);
    }
    const c = $("centre");
    c.textContent = "";
    const fact = (label, content) => {
      const sp = el("span", "fact");
      sp.appendChild(el("b", "", label + ": "));
      sp.appendChild(typeof content === "string" ? document.createTextNode(content) : content);
      c.appendChild(sp);
      return sp;
    };
    fact("wall", String(st.wall)).id = "wall";
    if (H.carry) fact("round", W.indexOf(H.carry.round_wind) >= 0 ? H.carry.round_wind : "") ;
    if (H.carry && H.carry.streak) fact("dealer's streak", String(H.carry.streak));
    if (st.ind) fact("indicator", tiles([st.ind]));
    if (st.wilds.length) fact("wilds", tiles(st.wilds));
    if (st.offer) {
      const o = el("span");
      o.appendChild(tile(st.offer[0]));
      o.appendChild(document.createTextNode(" from " + seatName(st.offer[1]) + " (" + st.offer[2] + ")"));
      fact("on offer", o).id = "offer";
    }
    if (st.fol && st.fol.rounds) fact("followed", st.fol.rounds + " rounds");
    if (st.ht !== null && st.ht !== undefined) fact("海底 taken by", seatName(st.ht));
    const ev = $("events");
    ev.textContent = "";
    const evs = H.steps[step][1].map(shownEvent).filter((e) => e !== null);
    if (evs.length) ev.appendChild(el("div", "", evs.join("; ")));
    renderAnalysis(H.steps[step][2]);
    const res = $("result");
    res.textContent = "";
    if (last && !H.payments) res.appendChild(el("p", "", "The log ends here, before the hand does."));
    if (last && H.payments) {
      if (!H.wins.length) res.appendChild(el("p", "", H.exhausted ? "Drawn: nobody won." : "No win."));
      H.wins.forEach((w) => {
        const box = el("div", "win");
        box.dataset.seat = w.seat;
        box.appendChild(el("h3", "", seatName(w.seat) + " wins on " + w.win + (w.self_drawn ? ", self-drawn" : "") +
          ": " + w.total + (w.form ? " (" + w.form + ")" : "")));
        const gr = el("div", "groups");
        gr.title = w.arrangement || "";
        w.groups.forEach((g) => {
          const b = el("span", "grp" + (g.meld ? " meld" : ""));
          b.title = g.kind + (g.meld ? " (" + g.meld + ")" : "");
          const wild = g.wilds.slice();
          g.tiles.forEach((t) => {
            const k = wild.indexOf(t);
            if (k >= 0) wild.splice(k, 1);
            b.appendChild(tile(t, k >= 0 ? "wild" : ""));
          });
          gr.appendChild(b);
        });
        box.appendChild(gr);
        if (w.arrangement) box.appendChild(el("div", "arr", w.arrangement));
        const t = el("table", "fans");
        t.innerHTML = "<thead><tr><th>fan</th><th></th><th class=num>value</th><th class=num>count</th></tr></thead>";
        const tb = el("tbody");
        w.fans.forEach((f) => {
          const tr = el("tr");
          [f.name, f.name_en, f.value, f.count].forEach((v, k) => tr.appendChild(el("td", k > 1 ? "num" : "", String(v))));
          tb.appendChild(tr);
        });
        t.appendChild(tb);
        const tf = el("tfoot"), tr = el("tr");
        tr.appendChild(el("th", "", "total"));
        tr.appendChild(el("td"));
        const tot = el("td", "num", String(w.total));
        tot.colSpan = 2;
        tr.appendChild(tot);
        tf.appendChild(tr);
        t.appendChild(tf);
        box.appendChild(t);
        res.appendChild(box);
      });
      if (H.outcome) {
        const det = el("details");
        det.id = "outcome";
        det.appendChild(el("summary", "", "what the payments were settled on"));
        const ot = el("table"), isTile = (v) => typeof v === "string" && G[v] !== undefined;
        for (const k in H.outcome) {
          const v = H.outcome[k], tr = el("tr");
          tr.appendChild(el("th", "", k));
          const td = el("td");
          if (Array.isArray(v) && v.length && v.every(isTile)) td.appendChild(tiles(v));
          else if (isTile(v)) td.appendChild(tile(v));
          else td.textContent = JSON.stringify(v);
          tr.appendChild(td);
          ot.appendChild(tr);
        }
        det.appendChild(ot);
        res.appendChild(det);
      }
      const pt = el("table");
      pt.id = "payments";
      const hr = el("tr"), br = el("tr");
      hr.appendChild(el("th", "", "payments"));
      br.appendChild(el("th", "", ""));
      for (let s = 0; s < 4; s++) {
        hr.appendChild(el("th", "num", seatName(s)));
        const td = el("td", "num", String(H.payments[s]));
        td.dataset.seat = s;
        br.appendChild(td);
      }
      pt.appendChild(hr);
      pt.appendChild(br);
      res.appendChild(pt);
    }
    const frag = "#hand=" + (hand + 1) + "&step=" + step + "&view=" + view + "&follow=" + follow + (text ? "&text=1" : "");
    if (location.hash !== frag) history.replaceState(null, "", frag);
  }

  // What analyze says of the followed seat's discards at this step, its choice marked.
  // An event as the seat viewed saw it: another seat's draw without its tile, its
  // concealed kong without its kind, its pass not at all (nobody sees who was asked).
  function shownEvent(text) {
    if (view === "all") return text;
    const m = /^(\S+) (\S+)(.*)$/.exec(text);
    if (!m || W.indexOf(m[1]) < 0 || W.indexOf(m[1]) === +view) return text;
    if (m[2] === "draws") return m[1] + " draws" + (m[3].endsWith("(replacement)") ? " (replacement)" : "");
    if (m[2] === "concealed_kong") return m[1] + " concealed_kong";
    if (m[2] === "pass") return null;
    return text;
  }

  function renderAnalysis(asked) {
    const box = $("analysis");
    box.textContent = "";
    // In one seat's view, only that seat's decisions: another's would show its hand.
    const seat = view === "all" ? follow : +view;
    const a = asked && asked[String(seat)];
    if (!a) return;
    box.appendChild(el("h3", "", "analysis: " + seatName(seat) + "'s discards, best first"));
    if (a.error) { box.appendChild(el("p", "", a.error)); return; }
    const rows = a.rows, best = rows[0], mine = rows.find((r) => r[0] === a.chose);
    if (mine && best && (mine[1] > best[1] || (mine[1] === best[1] && mine[2] < best[2]))) {
      box.appendChild(el("p", "departed", "discarded " + mine[0] + " (shanten " + mine[1] + ", " + mine[2] +
        " useful copies); the best: " + best[0] + " (shanten " + best[1] + ", " + best[2] + ")"));
    } else if (a.chose && !mine) {
      box.appendChild(el("p", "", "did not discard: " + a.chose));
    }
    const t = el("table");
    t.innerHTML = "<thead><tr><th>discard</th><th class=num>shanten</th><th class=num>useful copies</th><th>winning waits (copies, total)</th></tr></thead>";
    const tb = el("tbody");
    rows.forEach((r) => {
      const tr = el("tr", r === mine ? "chose" : "");
      const d = el("td");
      if (r[0]) d.appendChild(tile(r[0]));
      tr.appendChild(d);
      tr.appendChild(el("td", "num", String(r[1])));
      tr.appendChild(el("td", "num", String(r[2])));
      const w = el("td");
      r[3].forEach((x) => { w.appendChild(tile(x[0])); w.appendChild(document.createTextNode(" (" + x[1] + ", " + x[2] + ") ")); });
      tr.appendChild(w);
      tb.appendChild(tr);
    });
    t.appendChild(tb);
    box.appendChild(t);
  }

  function go(h, k) {
    hand = Math.max(0, Math.min(D.hands.length - 1, h));
    const n = states(hand).length;
    step = Math.max(0, Math.min(n - 1, k));
    render();
  }
  function decision(dir) {
    const S = states(hand);
    for (let k = step + dir; k >= 0 && k < S.length; k += dir) {
      if (S[k].ta.includes(follow)) return go(hand, k);
    }
  }

  const title = D.match ? "haidi " + D.match.rules + " match, " + D.hands.length + " hands" : "haidi " + D.hands[0].rules;
  $("title").textContent = title;
  if (D.match && D.match.players) {
    // The header's players (table positions) and what each was paid over the match,
    // checked against the hands before the page was written.
    const paid = D.match.payments || [];
    const who = D.match.players.map((p, i) => "player " + i + " " + p + (i < paid.length ? " " + (paid[i] > 0 ? "+" : "") + paid[i] : ""));
    const line = el("span", "players", " · " + who.join(" · "));
    line.id = "players";
    $("title").after(line);
  }
  D.hands.forEach((h, i) => {
    const o = el("option", "", String(i + 1) + (h.wins.length ? " · won by " + h.wins.map((w) => W[w.seat]).join("+") : " · drawn"));
    o.value = String(i);
    $("hand").appendChild(o);
  });
  for (let s = 0; s < 4; s++) {
    const o = el("option", "", "seat " + s + " (" + W[s] + ")");
    o.value = String(s);
    $("view").appendChild(o.cloneNode(true));
    $("follow").appendChild(o);
  }
  // Without a font holding the mahjong tiles, two of them draw as the same box: then text.
  try {
    const cv = document.createElement("canvas");
    cv.width = cv.height = 40;
    const cx = cv.getContext("2d");
    const ink = (ch) => { cx.clearRect(0, 0, 40, 40); cx.font = "32px sans-serif"; cx.fillText(ch, 2, 34); return cx.getImageData(0, 0, 40, 40).data.join(); };
    if (ink(G["1m"]) === ink(G["9p"])) text = true;
  } catch (e) { /* keep the glyphs */ }

  const q = new URLSearchParams(location.hash.slice(1));
  if (q.get("view")) view = q.get("view");
  if (q.get("text")) text = q.get("text") === "1";
  if (view !== "all") follow = +view;
  if (q.get("follow")) follow = +q.get("follow");
  $("follow").value = String(follow);
  $("view").value = view;
  $("text").checked = text;

  $("first").onclick = () => go(hand, 0);
  $("last").onclick = () => go(hand, 1e9);
  $("prev").onclick = () => go(hand, step - 1);
  $("next").onclick = () => go(hand, step + 1);
  $("prevhand").onclick = () => go(hand - 1, 0);
  $("nexthand").onclick = () => go(hand + 1, 0);
  $("hand").onchange = (e) => go(+e.target.value, 0);
  $("view").onchange = (e) => {
    view = e.target.value;
    if (view !== "all") { follow = +view; $("follow").value = view; }
    render();
  };
  $("follow").onchange = (e) => { follow = +e.target.value; render(); };
  $("decnext").onclick = () => decision(1);
  $("decprev").onclick = () => decision(-1);
  $("text").onchange = (e) => { text = e.target.checked; render(); };
  document.addEventListener("keydown", (e) => {
    if (e.target.tagName === "SELECT" || e.altKey || e.ctrlKey || e.metaKey) return;
    const keys = {
      ArrowLeft: () => go(hand, step - 1), ArrowRight: () => go(hand, step + 1),
      PageUp: () => go(hand - 1, 0), PageDown: () => go(hand + 1, 0),
      Home: () => go(hand, 0), End: () => go(hand, 1e9),
    };
    if (keys[e.key]) { e.preventDefault(); keys[e.key](); }
  });
  const k = q.get("step");
  go((+q.get("hand") || 1) - 1, k === "end" ? 1e9 : +k || 0);
})();
