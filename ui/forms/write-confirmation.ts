import { h, uniqueId } from '../dom/dom.js';

/**
 * The box a person ticks before a test of a writing step really writes
 * ("Let this test really write to the account", or delete for a destructive
 * one); an empty div for a step that only reads.
 */
export function writeConfirmation(access: string): HTMLElement {
  // Taken for a reading step too, so the ids after it are the same whatever the step does.
  const id = uniqueId('confirm');
  if (access === 'read') return h('div');
  return h(
    'div',
    { className: 'field confirm' },
    h('input', { id, type: 'checkbox', name: '__confirm' }),
    ' ',
    h(
      'label',
      { htmlFor: id, className: 'inline' },
      access === 'destructive'
        ? 'Let this test really delete in the account'
        : 'Let this test really write to the account',
    ),
  );
}

/** The confirmation's checkbox, when the box has one. */
export function confirmationBox(confirmation: HTMLElement): HTMLInputElement | null {
  return confirmation.querySelector('input');
}
