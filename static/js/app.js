// Progressive enhancement only: every page works without this file.
(() => {
  "use strict";

  document.documentElement.classList.add("js");

  /** The page's CSRF token, for fetch() calls that change data (send it as X-CSRFToken). */
  function csrfToken() {
    const meta = document.querySelector('meta[name="csrf-token"]');
    return meta ? meta.content : "";
  }

  window.kosci = { csrfToken };
})();
