/*
 * Before the first paint (a blocking script in <head>, .umirc.ts headScripts): the last signed-in user's
 * dark mode, from the browser's copy (src/components/preferences/stored.ts writes it, BOOT_KEY), so a
 * dark page never shows white first. React then applies the whole theme (PreferencesProvider.tsx).
 */
(function () {
  try {
    var saved = JSON.parse(localStorage.getItem('portal.theme') || 'null');
    if (!saved || saved.dark !== true) return;
    var style = document.documentElement.style;
    style.colorScheme = 'dark';
    style.backgroundColor = '#000000';
  } catch (e) {
    // Storage disabled or the copy unreadable: the light page.
  }
})();
