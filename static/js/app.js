// Progressive enhancement only: every page works without this file.
(() => {
  "use strict";

  document.documentElement.classList.add("js");
})();
