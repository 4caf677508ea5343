// Every phone on a game's screen follows the game: it asks the server every POLL_MS whether the
// game changed (GET …/stan with If-None-Match: one indexed read and a 304 while nothing
// happened) and, when another phone wrote a turn, took one back or ended the game, swaps the
// screen's <main> for the new one without a reload. Typed dice survive the swap (turn.js).
//
// No connection: a banner says so ("live.offline_retrying"), the page keeps what was
// typed, the polls go on (less often), and once the server answers again the screen catches up
// by itself. Without this file the pages still work by reload.
window.kosciLive = (() => {
  "use strict";

  const t = window.kosciText || ((key) => key); // app.js: texts in the page's language

  const ANNOUNCE_MS = 100; // a new live region's wait for its text (see `announce`)
  const POLL_MS = 1000; // a turn written elsewhere shows within 2 s, with room for a slow answer
  const OFFLINE_POLL_MS = [2000, 4000, 8000]; // then every 8 s
  const meta = document.querySelector('meta[name="kosci-live"]');
  let etag = meta ? meta.dataset.etag : null;
  let timer = null;
  let failures = 0;
  let stopped = !meta;
  let swaps = 0; // screens swapped in so far
  // When this phone last set off for another page (a link, an address typed, the next game's
  // invitation). Until that page arrives this screen stays, and polls on: a poll that finds the
  // game closed to it meanwhile (the invitation it opened replaced this game's) must not reload
  // it, or the reload would cancel the navigation under way. A navigation that never leaves
  // (a download, one cancelled) stops counting after LEAVING_MS.
  const LEAVING_MS = 10000;
  let leftAt = -Infinity;
  window.addEventListener("beforeunload", () => {
    leftAt = Date.now();
  });
  window.addEventListener("pageshow", () => {
    leftAt = -Infinity; // back on this screen (the back button's cache)
  });

  // The banner for a lost connection is app.js's (plain forms use it too).
  const offline = (text, retry, sticky = false) => window.kosciBanner.show(text, retry, sticky);
  const online = (all = false) => window.kosciBanner.hide(all);
  // A proxy's 502 (the app restarting) is no answer, as a lost connection is (app.js).
  const noAnswer = (response) => window.kosciNoAnswer(response);

  function schedule(ms) {
    clearTimeout(timer);
    if (!stopped) timer = setTimeout(poll, ms);
  }

  async function poll() {
    if (document.hidden || !meta) return; // visibilitychange polls again
    const seen = swaps; // a screen swapped in meanwhile (this phone's write) is newer than this answer
    let response;
    try {
      response = await fetch(meta.content, {
        headers: etag ? { "If-None-Match": etag } : {},
        credentials: "same-origin",
        cache: "no-store",
      });
    } catch {
      return unreachable();
    }
    if (noAnswer(response)) return unreachable(response); // the proxy's, while the app is away
    failures = 0;
    online();
    // Nothing written since the screen was drawn, even after polls that failed: the screen
    // stays as it is (a redraw would drop its one-time messages, „Zapisano” and its undo).
    if (response.status === 304) return schedule(POLL_MS);
    // The game is gone (deleted, an invitation revoked: 404), or the session ended (the poll
    // was sent on to the sign-in page): the page itself shows why, and nothing is left to follow.
    if (response.redirected || (!response.ok && response.status !== 304)) {
      if (Date.now() - leftAt < LEAVING_MS) return schedule(POLL_MS); // the next page shows why
      stopped = true;
      location.reload();
      return;
    }
    if (busy() || swaps !== seen) return schedule(POLL_MS); // this phone's write refreshes
    // The screen's ETag moves on only with a screen swapped in (`swap` takes the page's own): a
    // screen that could not be loaded (`refresh` has said so) is still behind at the next
    // poll, which loads it again.
    if (await refresh(location.href, seen)) schedule(POLL_MS);
  }

  /** No answer: say so (the app's own 503: its database is away), keep the screen as it is,
   * and ask again, less often. */
  function unreachable(response = null) {
    failures += 1;
    const database = response && window.kosciDatabaseAway(response);
    offline(t(database ? "live.database_retrying" : "live.offline_retrying"), () => poll());
    schedule(OFFLINE_POLL_MS[Math.min(failures, OFFLINE_POLL_MS.length) - 1]);
  }

  /** Whether this phone is writing right now (the page then refreshes itself). */
  function busy() {
    return Boolean(document.querySelector(".is-sending"));
  }

  /** Load `url` and show it in place of the current screen. False when it could not be loaded
   * (the connection dropped): the banner says so, and the polls, slower, catch up. */
  async function refresh(url, seen = null) {
    let response;
    let html;
    try {
      // While „Ponów” waits (a write's answer may have been cut off after its cookie, with
      // „Zapisano” in it), a poll's redraw may be dropped unseen: the retry is tapped meanwhile,
      // and its answer shows the screen. The redraw says so, and the server leaves the
      // one-time messages in the session, for the screen the retry brings.
      const waiting = seen !== null && window.kosciBanner.waitsForRetry();
      const headers = waiting ? { "Kosci-Redraw": "poll" } : {};
      response = await fetch(url, { headers, credentials: "same-origin", cache: "no-store" });
      if (noAnswer(response)) throw new Error("no answer from the app");
      html = await response.text();
    } catch {
      unreachable(response);
      return false;
    }
    // A poll's refresh that a write of this phone overtook would hide the write's answer.
    if (seen === null || (swaps === seen && !busy())) await swap(html, response.url || url);
    return true;
  }

  /** The messages of a screen swapped in, read out by screen readers. A live region
   * (role="status") is read out when its content changes once it is in the page, not when it
   * comes with its text: so each region of `main` stays empty until the browser has told the
   * reader about it, and then gets its messages back. Resolves once they are back. */
  function announce(main) {
    const regions = [...main.querySelectorAll('[role="status"]')]
      .filter((region) => region.hasChildNodes())
      .map((region) => [region, [...region.childNodes]]);
    if (!regions.length) return Promise.resolve();
    for (const [region] of regions) region.replaceChildren();
    return new Promise((resolve) => {
      setTimeout(() => {
        for (const [region, children] of regions) region.append(...children);
        resolve();
      }, ANNOUNCE_MS);
    });
  }

  /** Put the <main> of `html` in place of this page's, keeping the scroll position and the
   * keyboard's focus (on the same control, when the new screen has it). Resolves once the new
   * screen's messages are in (`announce`). */
  function swap(html, url) {
    const doc = new DOMParser().parseFromString(html, "text/html");
    const main = doc.querySelector("main#main");
    if (!main) {
      location.assign(url);
      return;
    }
    swaps += 1;
    window.dispatchEvent(new CustomEvent("kosci:before-swap"));
    const y = window.scrollY;
    const old = document.querySelector("main#main");
    const focused = document.activeElement;
    const hadFocus = Boolean(focused && focused !== document.body && old.contains(focused));
    old.replaceWith(main);
    document.title = doc.title;
    const freshMeta = doc.querySelector('meta[name="kosci-live"]');
    if (freshMeta && meta) {
      etag = freshMeta.dataset.etag;
      meta.dataset.etag = etag;
    } else if (!freshMeta) {
      // No game's screen any more (the sign-in page, after the session ended elsewhere): none
      // to follow, and a poll's reload would wipe what that page says.
      stopped = true;
      clearTimeout(timer);
    }
    if (url && url !== location.href) history.replaceState(null, "", url);
    window.scrollTo(0, y);
    window.dispatchEvent(new CustomEvent("kosci:swapped", { detail: { main } }));
    // After the listeners: turn.js shows or hides the new screen's pad, and may add a message.
    if (hadFocus) refocus(main, focused);
    return announce(main);
  }

  /** The focus was on the screen swapped out: to the same control on the new one (the same id,
   * pad face, or name and value), else the dice pad, else the screen itself, never the page's
   * body, where a keyboard or a screen reader would start over from the top. */
  function refocus(main, was) {
    const candidates = [
      was.id ? main.querySelector(`#${CSS.escape(was.id)}`) : null,
      was.dataset.face ? main.querySelector(`[data-pad] button[data-face="${was.dataset.face}"]`) : null,
      was.name && "value" in was
        ? main.querySelector(
            `${was.localName}[name="${CSS.escape(was.name)}"][value="${CSS.escape(was.value)}"]`,
          )
        : null,
      main.querySelector("[data-pad]:not([hidden]) button"),
    ];
    for (const target of candidates) {
      if (!target) continue;
      target.focus({ preventScroll: true });
      if (document.activeElement === target) return;
    }
    main.tabIndex = -1;
    main.focus({ preventScroll: true });
  }

  document.addEventListener("visibilitychange", () => {
    if (!document.hidden) poll();
  });
  window.addEventListener("online", () => poll());
  schedule(POLL_MS);

  return { refresh, swap, offline, online };
})();
