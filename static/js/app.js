// Progressive enhancement only: every page works without this file.

// The texts the scripts show, in the page's language: `kosciText("live.retry")`. base.html puts
// them in <script type="application/json" id="i18n-strings"> (data, never run: the CSP allows
// it), from JS_STRINGS in tracker/i18n.py; a key it lacks is shown as itself.
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

  // The app on the phone: offline page (service worker), theme switch, screen kept on in a game.
  registerServiceWorker();
  enhanceThemeSwitch();
  keepScreenOnDuringGame();
  retryWhenOnline();

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

  // The offline page: once the phone is back on the network, try the page again by itself.
  function retryWhenOnline() {
    if (!document.body.classList.contains("offline-page")) return;
    window.addEventListener("online", () => location.reload(), { once: true });
  }
})();
