// The games pages, enhanced. Without this file every action still works as a plain form.
//
// Turn screen [data-turn]: the dice widget (dice.js) fills the five dice, the pad hides once they
// are all in. Then the script asks the server for the pencil marks (the same GET the dice form
// sends, as an HTML fragment) and swaps them in: no rules live here. A 0 where another field
// scores more asks inline (the question comes from the server) before it is written.
// A turn is written with fetch: a lost connection shows „Brak połączenia z serwerem – spróbuj
// ponownie” with a retry, the dice stay, and a retry is never written twice (the server knows
// the turn by its number). Typed dice, five or fewer, also survive a reload (sessionStorage)
// and a swap of the screen by live.js when another phone writes.
// New game [data-new-game]: "Dodaj gracza" adds a row, ↑/↓ change the seating order.
(() => {
  "use strict";

  const t = window.kosciText || ((key) => key); // app.js: texts in the page's language
  // app.js: a proxy's 502 (the app restarting) is no answer, as a lost connection is.
  const noAnswer = (response) => Boolean(window.kosciNoAnswer && window.kosciNoAnswer(response));
  // The banner's text for no answer: the app's own 503 says its database is away, else the
  // server does not answer (app.js).
  const awayText = (response) =>
    t(response && window.kosciDatabaseAway && window.kosciDatabaseAway(response)
      ? "turn.database_retry"
      : "turn.offline_retry");
  const STORE = "kosci-dice:" + location.pathname;
  let carried = null; // the dice on screen when live.js swapped it, and their turn's number
  // The last write sent with no answer: its turn's number, its dice, and whether its „Ponów”
  // is on the banner (`offered`). It may have been written: asked about that turn again
  // (pencil marks, a screen swapped in), the server is told these dice too, and if they are
  // the roll the turn holds, the write went in, whatever was typed since.
  let unanswered = null;

  init(document);
  const newGame = document.querySelector("[data-new-game]");
  if (newGame) enhanceNewGame(newGame);

  let seqBefore = null; // the turn the screen showed before a swap
  let totalsBefore = null; // and the scoreboard's totals it showed
  window.addEventListener("kosci:before-swap", () => {
    const turn = document.querySelector("[data-turn]");
    const input = turn && turn.querySelector("[data-dice-input]");
    // The turn the dice were typed for: that of the screen, or of the screen they were carried
    // from while the server has not yet said what became of them (`overtaken`).
    carried = input ? { dice: input.value, seq: turn.dataset.diceSeq || turn.dataset.seq } : null;
    seqBefore = turn ? Number(turn.dataset.seq) : null;
    totalsBefore = turn ? totals(turn) : null;
  });
  window.addEventListener("kosci:swapped", (event) => {
    forgetMootRetry(event.detail.main);
    tellUndoneElsewhere(event.detail.main);
    tellCorrectedElsewhere(event.detail.main);
    init(event.detail.main);
  });

  /** A write's „Ponów”, once the screen swapped in is past that write's turn: the turn was
   * written (the answer lost, or on another phone) or taken back, and the new screen says so.
   * A retry would only be refused, so the banner goes. On the same turn (the connection back,
   * nothing changed) it stays: the dice came along, and „Ponów” writes them. */
  function forgetMootRetry(main) {
    const turn = main.querySelector("[data-turn]");
    if (!unanswered?.offered || (turn && turn.dataset.seq === unanswered.seq)) return;
    unanswered.offered = false;
    if (window.kosciLive) window.kosciLive.online(true);
  }

  /** The screen went back a turn without this phone asking: another phone took a turn back
   * (this phone's own undo is a form, a page of its own). Say so, as a write from another
   * phone is said, so that nobody at the table believes the turn still stands. */
  function tellUndoneElsewhere(main) {
    const turn = main.querySelector("[data-turn]");
    if (seqBefore === null || !turn || Number(turn.dataset.seq) >= seqBefore) return;
    if (carried && carried.dice) return; // dice typed: the server's word on them says it (overtaken)
    const name = main.querySelector(".turn-name");
    const note = document.createElement("p");
    note.className = "flash flash-info";
    note.dataset.undoneElsewhere = "";
    note.textContent = t("turn.undone_elsewhere").replace("%(name)s", name ? name.textContent : "");
    const box = document.createElement("div");
    box.className = "flashes";
    box.setAttribute("role", "status");
    box.append(note);
    turn.before(box);
  }

  function totals(scope) {
    return [...scope.querySelectorAll(".scores .scores-total")].map((e) => e.textContent).join(" ");
  }

  /** The same turn, other totals: another phone corrected an earlier turn (a write or an undo
   * changes the turn). Said, or the family sees a score change with no reason given. */
  function tellCorrectedElsewhere(main) {
    const turn = main.querySelector("[data-turn]");
    if (seqBefore === null || !turn || Number(turn.dataset.seq) !== seqBefore) return;
    if (totalsBefore === null || totals(turn) === totalsBefore) return;
    const note = document.createElement("p");
    note.className = "flash flash-info";
    note.dataset.correctedElsewhere = "";
    note.textContent = t("turn.corrected_elsewhere");
    const box = document.createElement("div");
    box.className = "flashes";
    box.setAttribute("role", "status");
    box.append(note);
    turn.before(box);
  }

  function init(scope) {
    const turn = scope.querySelector("[data-turn]");
    if (turn) enhanceTurn(turn);
  }

  function saved(seq) {
    try {
      const value = JSON.parse(sessionStorage.getItem(STORE) || "null");
      return value && value.seq === seq ? value.dice : "";
    } catch {
      return "";
    }
  }

  function save(seq, dice) {
    try {
      if (dice) sessionStorage.setItem(STORE, JSON.stringify({ seq, dice }));
      else sessionStorage.removeItem(STORE);
    } catch {
      // private mode without storage: the dice only live on the screen
    }
  }

  function enhanceTurn(root) {
    const form = root.querySelector("[data-dice-form]");
    const input = form.querySelector("[data-dice-input]");
    // Dice typed before a swap (another phone wrote meanwhile), a reload or a visit to another
    // page come back, with the number of the turn they were typed for.
    let back = "";
    let backSeq = root.dataset.seq;
    if (!input.value) {
      if (carried !== null) ({ dice: back, seq: backSeq } = carried);
      else back = saved(root.dataset.seq);
      if (back) input.value = back;
    }
    carried = null;
    const pad = form.querySelector("[data-pad]");
    const region = root.querySelector("[data-fields]");
    const noDice = root.querySelector("[data-no-dice]");
    const askTemplate = root.querySelector("template[data-confirm-template]");
    const roll = window.kosciDice.roll(form, pad, changed);
    // The roll the pencil marks are for: the server's, when it pencilled them in.
    let shown = roll.full() && noDice.hidden ? roll.dice.join("") : "";
    let request = 0;
    let sending = false;
    let asking = null;

    window.kosciDice.pad(pad, (face) => {
      if (roll.full()) return; // the pad is hidden then
      roll.add(face);
      changed();
    });
    pad.hidden = roll.full();
    if (back && backSeq !== root.dataset.seq) {
      root.dataset.diceSeq = backSeq;
      overtaken(back, backSeq);
    }
    else if (back) {
      save(root.dataset.seq, back);
      if (roll.full()) load();
    }

    form.addEventListener("submit", (event) => {
      if (!roll.full()) return; // the server says what is wrong with the dice
      event.preventDefault();
      load();
    });

    root.addEventListener("submit", (event) => {
      const write = event.target;
      if (!write.matches("[data-write]")) return;
      if (sending) {
        event.preventDefault(); // one tap writes one turn
        return;
      }
      const button = event.submitter;
      const confirm = write.elements.namedItem("confirm");
      if (button && button.dataset.confirm && confirm.value !== "1") {
        event.preventDefault();
        ask(write, button, confirm);
        return;
      }
      event.preventDefault();
      send(write, button);
    });

    /** Write the turn; on a lost connection offer a retry (the same request: the server
     * writes a turn once, however often it is sent). */
    async function send(write, button) {
      sending = true;
      request += 1; // a pencil-marks answer still on its way is for a turn being written now
      root.classList.add("is-sending");
      let body;
      try {
        body = new FormData(write, button);
      } catch {
        body = new FormData(write); // browsers without the submitter argument
        if (button && button.name) body.append(button.name, button.value);
      }
      let response;
      let written = null;
      let page = null;
      try {
        response = await fetch(write.action, {
          method: "POST",
          body,
          credentials: "same-origin",
          headers: { Accept: "application/json, text/html", Prefer: "return=minimal" },
        });
        // The proxy's 502 while the app restarts: not sent, as far as this phone knows (a
        // retry of a turn already written is written once).
        if (noAnswer(response)) throw new Error("no answer from the app");
        const type = response.headers.get("Content-Type") || "";
        // The answer is read whole here: one cut off on the way (or mangled) is a lost answer.
        if (response.ok && type.includes("application/json")) {
          written = await response.json();
          if (typeof written?.url !== "string") throw new TypeError("no url in the answer");
        } else {
          page = await response.text();
        }
      } catch {
        sending = false;
        root.classList.remove("is-sending");
        const live = window.kosciLive;
        const dice = String(body.get("dice") || "");
        unanswered = { seq: root.dataset.seq, dice, offered: Boolean(live) };
        if (live) {
          live.offline(awayText(response), () => {
            unanswered.offered = false;
            send(write, button);
          }, true);
        }
        else write.submit();
        return;
      }
      if (window.kosciLive) window.kosciLive.online(true);
      unanswered = null;
      if (written) {
        save(root.dataset.seq, "");
        // Written: these dice are not carried to the next turn, from this screen or from one
        // swapped in for the same turn meanwhile.
        for (const screen of [root, document.querySelector("[data-turn]")]) {
          if (screen && screen.dataset.seq === root.dataset.seq) {
            screen.querySelector("[data-dice-input]").value = "";
          }
        }
        if (!(await refreshTo(written.url))) {
          // Written, but the connection dropped before the screen could show it (live.js says
          // so): no longer sending, so that live.js's polls, which leave a sending screen
          // alone, show the turn.
          sending = false;
          root.classList.remove("is-sending");
        } else {
          revealWritten();
        }
      } else {
        // Refused and sent back to the game (another phone wrote first): the server's address
        // keeps the dice when they still wait to be written, and drops them when they are the
        // roll already written, which must then not come along either.
        if (response.redirected) dropUnlessKept(new URL(response.url));
        show(page, response.url);
      }
    }

    /** After this phone's own write, its „Zapisano” and the undo in it in view, with the next
     * turn below: the swap keeps the scroll (right for another phone's write), but a field low
     * on a long sheet (Kości potrójne) would leave them far above the thumb. A page loaded
     * without live.js opens at the top anyway. */
    function revealWritten() {
      const flash = document.querySelector(".flash-written");
      if (flash && flash.getBoundingClientRect().top < 0) flash.scrollIntoView({ block: "start" });
    }

    /** Show the screen at `url`; false when it could not be loaded (live.js then says so). */
    async function refreshTo(url) {
      if (window.kosciLive) return window.kosciLive.refresh(url);
      location.assign(url);
      return true;
    }

    function show(html, url) {
      if (window.kosciLive) window.kosciLive.swap(html, url);
      else location.assign(url);
    }

    window.addEventListener("pageshow", () => {
      sending = false;
      root.classList.remove("is-sending");
    });

    function changed() {
      // Typed dice that are no roll are kept as typed: a reload shows them with their problem.
      save(root.dataset.seq, roll.wrong ? input.value : roll.dice.filter((d) => d !== null).join(""));
      // The fifth die hides the pad: a keyboard's focus moves on to the fields, not to the page.
      const onPad = pad.contains(document.activeElement);
      pad.hidden = roll.full();
      if (!roll.full()) clear();
      else if (roll.dice.join("") !== shown) load(onPad);
      else if (onPad) focusField();
    }

    /** The field the screen shows first (the hint's, the best, else the first), focused. */
    function focusField() {
      const field =
        region.querySelector("button[data-hint-best]") ||
        region.querySelector("button[data-best]") ||
        region.querySelector("button");
      if (!field) return;
      field.focus({ preventScroll: true }); // brought into view as little as needed, below
      if (field.getBoundingClientRect().bottom > window.innerHeight) {
        field.scrollIntoView({ block: "nearest" });
      }
    }

    function gameUrl(params) {
      const url = new URL(form.action);
      url.hash = "";
      url.search = params ? new URLSearchParams(params).toString() : "";
      return url;
    }

    /** The pencil marks' request for `dice` typed for turn `seq` (with the dice of a write sent
     * for that turn and never answered). */
    function fieldsUrl(dice, seq) {
      const sent = unanswered && unanswered.seq === seq ? { sent: unanswered.dice } : {};
      return gameUrl({ dice, fragment: "fields", seq, ...sent });
    }

    function clear() {
      request += 1; // a late answer for older dice is dropped
      shown = "";
      asking = null;
      region.replaceChildren();
      noDice.hidden = false;
      history.replaceState(null, "", gameUrl().href);
    }

    /** Dice typed for turn `seq`, which another phone has written or taken back since: the
     * server says what happened, as it does for pencil marks asked too late (a 409 naming the
     * turns, and where the game is now), and the dice stay, pencilled in for whoever is up now
     * once all five are in. */
    async function overtaken(dice, seq) {
      const mine = (request += 1);
      let response;
      try {
        response = await fetch(fieldsUrl(dice, seq), {
          headers: { Accept: "text/html" },
          credentials: "same-origin",
        });
        if (noAnswer(response)) throw new Error("no answer from the app");
      } catch {
        if (mine === request && roll.full()) load(); // offline: load says so, with a retry
        return;
      }
      if (mine !== request || !root.isConnected) return; // a screen swapped out meanwhile
      if (response.ok) {
        // The game is back at that turn (written, then taken back): nothing to say.
        delete root.dataset.diceSeq;
        if (roll.full()) load();
        return;
      }
      await follow(response);
    }

    /** Go where the server's 409 says the game is now (its Content-Location). The address
     * keeps the typed dice while they wait to be written; without them, they are the roll
     * already written at their turn, so they are dropped here too, not carried on. */
    async function follow(response) {
      const next = response.headers.get("Content-Location");
      const url = new URL(next || gameUrl().href, location.href);
      // The server has said what became of dice carried from an earlier turn: from here on
      // they are this screen's (or gone), or the next screen would ask about them again, and
      // again, without end.
      delete root.dataset.diceSeq;
      if (!(next && dropUnlessKept(url)) && !roll.full()) {
        // A few dice: they come back through the swap, not the address (which pencils in five).
        url.searchParams.delete("dice");
        url.searchParams.delete("seq");
      }
      await refreshTo(url.href);
    }

    /** `url`, where the server sends this phone after a refusal, is the game's screen without
     * the typed dice: they are the roll already written, so they are dropped here too (true). */
    function dropUnlessKept(url) {
      if (url.pathname !== gameUrl().pathname || url.searchParams.has("dice")) return false;
      input.value = "";
      save(root.dataset.seq, "");
      return true;
    }

    async function load(moveFocus = false) {
      const dice = roll.dice.join("");
      const mine = (request += 1);
      shown = dice;
      history.replaceState(null, "", gameUrl({ dice, seq: root.dataset.seq }).href);
      region.setAttribute("aria-busy", "true");
      let response = null;
      try {
        response = await fetch(fieldsUrl(dice, root.dataset.seq), {
          headers: { Accept: "text/html" },
          credentials: "same-origin",
        });
        if (mine !== request || !root.isConnected) return; // a screen swapped out meanwhile
        if (noAnswer(response)) throw new Error("no answer from the app");
        if (window.kosciLive) window.kosciLive.online(true);
        if (!response.ok) {
          // Another phone has written this turn (409: the answer says where the game is now,
          // with these dice kept, or not when they are the roll written) or the session
          // ended: show the game.
          await follow(response);
          return;
        }
        const html = await response.text();
        if (mine !== request) return;
        region.innerHTML = html;
        noDice.hidden = true;
        const lost = !document.activeElement || document.activeElement === document.body;
        if (moveFocus && lost) focusField();
        // Kości potrójne: 39 cells do not fit a phone; the best one is brought into view (with
        // „Podpowiedzi”, the one the hint marks).
        const best = region.querySelector("[data-hint-best]") || region.querySelector("[data-best]");
        if (best && best.getBoundingClientRect().bottom > window.innerHeight) {
          best.scrollIntoView({ block: "nearest" });
        }
      } catch {
        if (mine !== request) return;
        // No connection: say so and keep the dice (a retry asks again); without live.js the
        // plain form still works.
        const live = window.kosciLive;
        if (live) live.offline(awayText(response), () => load(), true);
        else form.submit();
      } finally {
        if (mine === request) region.removeAttribute("aria-busy");
      }
    }

    function ask(write, button, confirm) {
      if (asking) asking.remove();
      const box = askTemplate.content.firstElementChild.cloneNode(true);
      box.querySelector("[data-question]").textContent = button.dataset.confirm;
      box.querySelector("[data-confirm-yes]").addEventListener("click", () => {
        confirm.value = "1";
        write.requestSubmit(button);
      });
      box.querySelector("[data-confirm-no]").addEventListener("click", () => {
        box.remove();
        asking = null;
        button.focus();
      });
      button.closest("[data-row]").append(box);
      asking = box;
      box.focus();
      box.scrollIntoView({ block: "nearest" });
    }
  }

  function enhanceNewGame(form) {
    const list = form.querySelector("[data-seats]");
    const template = form.querySelector("template[data-seat-template]");
    const add = form.querySelector("[data-add-seat]");
    const max = Number(list.dataset.max);
    const rows = () => Array.from(list.querySelectorAll("[data-seat]"));

    function refresh() {
      const all = rows();
      all.forEach((row, i) => {
        row.querySelector('[data-move="-1"]').hidden = i === 0;
        row.querySelector('[data-move="1"]').hidden = i === all.length - 1;
      });
      if (add) add.hidden = all.length >= max;
    }

    list.addEventListener("click", (event) => {
      const button = event.target.closest("[data-move]");
      if (!button) return;
      const all = rows();
      const from = all.indexOf(button.closest("[data-seat]"));
      const to = from + Number(button.dataset.move);
      if (to < 0 || to >= all.length) return;
      // Swap the names, not the rows: "Gracz 1" stays first and ids stay in order.
      const a = all[from].querySelector("input");
      const b = all[to].querySelector("input");
      [a.value, b.value] = [b.value, a.value];
      const follow = all[to].querySelector(`[data-move="${button.dataset.move}"]`);
      (follow.hidden ? b : follow).focus();
    });

    // Enter in a name goes to the next name instead of starting the game at once.
    list.addEventListener("keydown", (event) => {
      if (event.key !== "Enter" || !event.target.matches("input")) return;
      const all = rows();
      const next = all[all.indexOf(event.target.closest("[data-seat]")) + 1];
      if (next) {
        event.preventDefault();
        next.querySelector("input").focus();
      }
    });

    if (add) {
      add.addEventListener("click", (event) => {
        event.preventDefault();
        const count = rows().length;
        if (count >= max) return;
        const html = template.innerHTML
          .replaceAll("__INDEX__", String(count))
          .replaceAll("__NUMBER__", String(count + 1));
        list.insertAdjacentHTML("beforeend", html);
        refresh();
        list.lastElementChild.querySelector("input").focus();
      });
    }
    refresh();
  }
})();
