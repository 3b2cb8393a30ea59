/**
 * The page's tabs, as the ARIA authoring practices describe them: arrow
 * keys move between tabs, Home and End jump, a tab is chosen as it gets the
 * focus, and only the chosen tab is in the Tab order. The chosen tab is
 * remembered in the session, so a redirect sign-in comes back to it.
 */
const TAB_KEY = 'toolsteps-ui-tab';

export function wireTabs(): void {
  const tabs = [...document.querySelectorAll<HTMLButtonElement>('[role="tab"]')];
  const choose = (tab: HTMLButtonElement, focus: boolean) => {
    for (const other of tabs) {
      const selected = other === tab;
      other.setAttribute('aria-selected', String(selected));
      other.tabIndex = selected ? 0 : -1;
      const panel = document.getElementById(other.getAttribute('aria-controls') ?? '');
      if (panel) panel.hidden = !selected;
    }
    sessionStorage.setItem(TAB_KEY, tab.id);
    if (focus) tab.focus();
  };
  tabs.forEach((tab, index) => {
    tab.addEventListener('click', () => choose(tab, false));
    tab.addEventListener('keydown', (event) => {
      const next =
        event.key === 'ArrowRight'
          ? tabs[(index + 1) % tabs.length]
          : event.key === 'ArrowLeft'
            ? tabs[(index - 1 + tabs.length) % tabs.length]
            : event.key === 'Home'
              ? tabs[0]
              : event.key === 'End'
                ? tabs[tabs.length - 1]
                : undefined;
      if (!next) return;
      event.preventDefault();
      choose(next, true);
    });
  });
  const remembered = tabs.find((tab) => tab.id === sessionStorage.getItem(TAB_KEY));
  if (remembered) choose(remembered, false);
}
