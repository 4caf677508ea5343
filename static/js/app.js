// Progressive enhancement only: every page works without this file.

// The texts the scripts show, in the page's language: `kosciText("app.retry")`. base.html puts
// them in <script type="application/json" id="i18n-strings"> (data, never run: the CSP allows
// it), from JS_STRINGS in tracker/i18n.py; a key it lacks is shown as itself.
/** The banner at the foot of the screen for a lost connection (live.js, turn.js, plain forms):
 * `show(text, retry, sticky)` with a „Ponów” that runs `retry`; a `sticky` banner (something
 * this phone sent did not get through) stays until `hide(true)` or its retry, and
 * `waitsForRetry()` says whether one is on screen. */
window.kosciBanner = (() => {
  "use strict";
  let banner = null;
  let retrying = null;

  function show(text, retry, sticky = false) {
    if (!banner) {
      banner = document.createElement("div");
      banner.className = "net-banner";
      banner.setAttribute("role", "alert");
      banner.innerHTML = '<p data-net-text></p><button class="btn btn-secondary" type="button"></button>';
      banner.querySelector("button").textContent = window.kosciText("app.retry");
      banner.querySelector("button").addEventListener("click", (event) => {
        // One tap, one retry. Not `disabled`: that would drop a keyboard's focus to the page.
        const button = event.currentTarget;
        if (button.getAttribute("aria-disabled") === "true") return;
        button.setAttribute("aria-disabled", "true");
        if (retrying) retrying();
      });
      document.body.append(banner);
    }
    if (banner.dataset.sticky && !banner.hidden && !sticky) return; // the write's banner stays
    banner.dataset.sticky = sticky ? "1" : "";
    banner.querySelector("[data-net-text]").textContent = text;
    if (retry) retrying = retry;
    banner.querySelector("button").removeAttribute("aria-disabled");
    banner.hidden = false;
  }

  function hide(all = false) {
    if (!banner || !(all || !banner.dataset.sticky)) return;
    const focused = banner.contains(document.activeElement); // „Ponów”, pressed by keyboard
    banner.hidden = true;
    if (!focused) return;
    // Not to the page's top: to the screen, its dice pad first (live.js keeps the place when
    // it redraws the screen).
    const main = document.querySelector("main#main");
    const pad = main && main.querySelector("[data-pad]:not([hidden]) button");
    if (pad) pad.focus({ preventScroll: true });
    else if (main) {
      main.tabIndex = -1;
      main.focus({ preventScroll: true });
    }
  }

  /** Whether a sticky banner is on screen: something this phone sent waits for its „Ponów”. */
  function waitsForRetry() {
    return Boolean(banner && !banner.hidden && banner.dataset.sticky);
  }

  return { show, hide, waitsForRetry };
})();

/** Whether `response` is no answer from the app itself: 502, 503 or 504, what nginx or Caddy in
 * front says while `serve` restarts or is down (README "Behind a proxy, over HTTPS"), and the
 * app's own 503 while its database does not answer. The screen's scripts take it as a lost
 * connection: the screen stays, with what was typed, and the banner's „Ponów” tries again. */
window.kosciNoAnswer = (response) => response.status >= 502 && response.status <= 504;
// Of those, the app's own 503 (it says so: OWN_ANSWER_HEADER in tracker/errors.py): the server
// answers, its database does not (PostgreSQL restarting). Still nothing done, but the banner
// says what is away: the phone's Wi-Fi is fine.
window.kosciDatabaseAway = (response) =>
  response.status === 503 && response.headers.get("Kosci-Answered-By") === "app";

window.kosciText = (() => {
  "use strict";
  let strings = null;
  return (key) => {
    if (strings === null) {
      const data = document.getElementById("i18n-strings");
      try {
        strings = data ? JSON.parse(data.textContent) : {};
      } catch {
        strings = {};
      }
    }
    return Object.hasOwn(strings, key) ? strings[key] : key;
  };
})();

(() => {
  "use strict";

  const root = document.documentElement;
  root.classList.add("js");
  const script = document.currentScript;
  const THEME_COOKIE = "theme"; // tracker/main/app_shell.py reads it to draw the page
  const THEME_MAX_AGE = 400 * 24 * 60 * 60;
  const THEMES = ["auto", "light", "dark"];
  // retryByItself: the tries of a page that came back to the offline page (sessionStorage).
  const TRIES_KEY = "kosci.retried";
  const STUCK_AFTER = 2;
  const STUCK_FORGET = 5 * 60 * 1000;

  // The app on the phone: offline page (service worker), theme switch, screen kept on in a game,
  // no form sent into a lost connection.
  registerServiceWorker();
  enhanceThemeSwitch();
  keepScreenOnDuringGame();
  retryByItself();
  checkBeforePosting();

  // The service worker (/sw.js) keeps the app shell and shows the offline page when the server
  // cannot be reached. Browsers allow one only in a secure context: HTTPS, or localhost; not on
  // a plain http://192.168.… address (README "The app on the phone").
  function registerServiceWorker() {
    const url = script && script.dataset.serviceWorker;
    if (!url || !("serviceWorker" in navigator) || !window.isSecureContext) return;
    // Then tell it this page's language: its offline page will be in it (static/js/sw.js).
    const register = () =>
      navigator.serviceWorker
        .register(url)
        .then(() => navigator.serviceWorker.ready)
        .then((registration) => registration.active.postMessage({ language: root.lang }))
        .catch(() => {});
    if (document.readyState === "complete") register();
    else window.addEventListener("load", register, { once: true });
  }

  // The theme: a cookie the server reads to draw the page in its colours from the first paint
  // (tracker/main/app_shell.py). Here a tap applies it at once, without loading the page again.
  function savedTheme() {
    const found = document.cookie.split("; ").find((c) => c.startsWith(`${THEME_COOKIE}=`));
    const value = found ? found.slice(THEME_COOKIE.length + 1) : "auto";
    return THEMES.includes(value) ? value : "auto";
  }

  function applyTheme(theme) {
    if (theme === "auto") delete root.dataset.theme;
    else root.dataset.theme = theme;
    const scheme = document.querySelector('meta[name="color-scheme"]');
    if (scheme) scheme.content = theme === "auto" ? "light dark" : theme;
    // Each theme-color meta names its own scheme's colour (data-color); a forced theme puts its
    // colour in both, so the browser's bars match the page whatever the phone's setting.
    const bars = [...document.querySelectorAll('meta[name="theme-color"][data-color]')];
    const colour = (name) => {
      const meta = bars.find((m) => (m.getAttribute("media") || "").includes(name));
      return meta ? meta.dataset.color : "";
    };
    for (const meta of bars) meta.content = theme === "auto" ? meta.dataset.color : colour(theme);
    for (const button of document.querySelectorAll("[data-theme-switch] button[name=theme]")) {
      button.setAttribute("aria-pressed", String(button.value === theme));
    }
  }

  function enhanceThemeSwitch() {
    // A page the browser kept (the back button, the offline page in the worker's cache) may have
    // been drawn before the latest choice: the cookie has the last word.
    const sync = () => {
      const theme = savedTheme();
      if (theme !== (root.dataset.theme || "auto")) applyTheme(theme);
    };
    sync();
    window.addEventListener("pageshow", (event) => event.persisted && sync());
    for (const form of document.querySelectorAll("[data-theme-switch]")) {
      form.addEventListener("submit", (event) => {
        const theme = event.submitter && event.submitter.value;
        if (!THEMES.includes(theme)) return;
        event.preventDefault();
        const secure = location.protocol === "https:" ? "; Secure" : "";
        document.cookie =
          `${THEME_COOKIE}=${theme}; Path=/; Max-Age=${THEME_MAX_AGE}; SameSite=Lax${secure}`;
        applyTheme(theme);
      });
    }
  }

  // A game left on the table: the phone's screen stays on while the game's page is visible
  // (Screen Wake Lock). The browser drops the lock when the page is hidden; it is asked for again
  // when the page comes back. Where there is no such API, or it is refused, nothing happens.
  function keepScreenOnDuringGame() {
    if (!document.body.hasAttribute("data-wake-lock") || !("wakeLock" in navigator)) return;
    let lock = null;
    let asking = false;
    const ask = async () => {
      if (lock || asking || document.visibilityState !== "visible") return;
      asking = true;
      try {
        lock = await navigator.wakeLock.request("screen");
        lock.addEventListener("release", () => {
          lock = null;
        });
      } catch {
        // Refused (battery saver, not allowed): the screen sleeps as it always did.
      } finally {
        asking = false;
      }
    };
    document.addEventListener("visibilitychange", ask);
    ask();
  }

  // A plain form that posts (an undo, a correction, a rename, signing in) sent while the server
  // cannot be reached would leave the page for the browser's own error page, and what was typed
  // with it. Without a service worker (plain http:// on a home network) nothing stands in. So the
  // server is asked first (/healthz: no database, no session); unreachable, the page stays, and
  // the banner says so with a retry. Forms a script sends itself (turn.js) are not touched.
  function checkBeforePosting() {
    const health = script && script.dataset.health;
    if (!health) return;
    const checked = new WeakSet(); // forms let through, for the submit that follows
    const checking = new WeakSet();
    document.addEventListener("submit", async (event) => {
      const form = event.target;
      const method = (event.submitter && event.submitter.getAttribute("formmethod")) || form.method;
      if (event.defaultPrevented || method.toLowerCase() !== "post") return;
      if (checked.has(form)) {
        checked.delete(form);
        return;
      }
      event.preventDefault();
      if (checking.has(form)) return; // one tap, one check
      checking.add(form);
      const submitter = event.submitter;
      const reachable = await answers(health);
      checking.delete(form);
      const send = () => {
        // A screen swapped meanwhile (live.js) took the form out: it is sent as it was, with
        // the turn number it was for (the server refuses it if the game moved on since).
        if (!form.isConnected) {
          form.hidden = true;
          document.body.append(form);
        }
        checked.add(form);
        if (submitter && submitter.form === form) form.requestSubmit(submitter);
        else form.requestSubmit();
      };
      if (reachable) {
        window.kosciBanner.hide(true);
        send();
      } else {
        window.kosciBanner.show(window.kosciText("app.offline_form"), async () => {
          if (await answers(health)) {
            window.kosciBanner.hide(true);
            send();
          } else {
            window.kosciBanner.show(window.kosciText("app.offline_form"), null, true);
          }
        }, true);
      }
    });
  }

  /** Whether the server answers `url` (within a few seconds: a hung Wi-Fi is no connection). */
  async function answers(url) {
    const stop = new AbortController();
    const timer = setTimeout(() => stop.abort(), 8000);
    try {
      const response = await fetch(url, { cache: "no-store", credentials: "omit", signal: stop.signal });
      return response.ok;
    } catch {
      return false;
    } finally {
      clearTimeout(timer);
    }
  }

  // The offline page (static/js/sw.js shows it at the address the phone asked for, in place of a
  // page it could not get, always a GET), and the app's own page for a database that does not
  // answer (`data-retry-health`, only for a GET): each tries that page again by itself. It asks
  // whether the server (/healthz: no database, no session) or the database (/healthz/db)
  // answers, a few seconds apart, at once when the phone is back on the Wi-Fi or the page is
  // shown again, and loads the page once it does. A server that stays away is asked less and
  // less often (3 s, then up to 10 s apart, with jitter, so that a club's phones do not all
  // come at once); a hidden page asks nothing.
  //
  // A page that comes back here after the server's answer (a gateway's 504: the page itself
  // takes longer than the gateway waits) would be loaded again and again, each time as slow:
  // after STUCK_AFTER such tries in a row the offline page says so ([data-stuck]) and waits
  // for a tap. The tries are counted per page and tab (sessionStorage), and forgotten when any
  // page opens or STUCK_FORGET has passed.
  function retryByItself() {
    const RETRY_FIRST = 3000;
    const RETRY_MAX = 10000;
    const health = retryHealth();
    if (!health) {
      forgetTries();
      return;
    }
    const tried = triesOfThisPage();
    if (tried >= STUCK_AFTER && showStuck()) return;
    let delay = RETRY_FIRST;
    let timer = null;
    let asking = false;
    const visible = () => document.visibilityState === "visible";
    const later = () => {
      clearTimeout(timer);
      timer = visible() ? setTimeout(tryNow, delay * (0.8 + 0.4 * Math.random())) : null;
    };
    async function tryNow() {
      clearTimeout(timer);
      timer = null;
      if (asking || !visible()) return;
      asking = true;
      const back = await answers(health);
      asking = false;
      if (back) {
        noteTry(tried + 1);
        location.reload(); // the page asked for, its query included
        return;
      }
      delay = Math.min(delay * 1.5, RETRY_MAX);
      later();
    }
    const now = () => {
      delay = RETRY_FIRST;
      tryNow();
    };
    window.addEventListener("online", now);
    document.addEventListener("visibilitychange", () => (visible() ? now() : later()));
    later();
  }

  function triesOfThisPage() {
    try {
      const noted = JSON.parse(sessionStorage.getItem(TRIES_KEY) || "null");
      const fresh = noted && noted.url === location.href && Date.now() - noted.at < STUCK_FORGET;
      return fresh ? noted.tries : 0;
    } catch {
      return 0; // storage refused (a private window's quota) or garbled: count from nothing
    }
  }

  function noteTry(tries) {
    try {
      const noted = { url: location.href, at: Date.now(), tries };
      sessionStorage.setItem(TRIES_KEY, JSON.stringify(noted));
    } catch {
      // without storage the page keeps trying, as before
    }
  }

  function forgetTries() {
    try {
      sessionStorage.removeItem(TRIES_KEY);
    } catch {
      // nothing kept
    }
  }

  // The offline page's second face: the server answers, the page does not open.
  function showStuck() {
    const stuck = document.querySelectorAll(".offline [data-stuck]");
    if (!stuck.length) return false;
    for (const element of stuck) element.hidden = false;
    for (const element of document.querySelectorAll(".offline [data-unreachable]")) {
      element.hidden = true;
    }
    document.querySelector(".offline").setAttribute("aria-labelledby", "stuck-heading");
    return true;
  }

  // What a page that stands for another asks before loading it again; none on any other page.
  function retryHealth() {
    const own = document.querySelector("[data-retry-health]");
    if (own) return own.dataset.retryHealth;
    const offline = document.querySelector(".offline-page [data-offline]");
    // Opened at its own address (/offline), it stands for no other page: nothing to try again.
    if (!offline || location.pathname === offline.dataset.offline) return null;
    return script && script.dataset.health;
  }
})();
