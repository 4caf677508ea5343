// Correcting a turn (templates/games/correct.html), enhanced: the dice widget (dice.js) on the
// form's dice, filled with the turn's dice. Without this file the dice are a plain text input.
(() => {
  "use strict";

  for (const scope of document.querySelectorAll("[data-correction-dice]")) {
    const pad = scope.querySelector("[data-pad]");
    const roll = window.kosciDice.roll(scope, pad, () => {});
    window.kosciDice.pad(pad, (face) => roll.add(face));
  }
})();
