import { ApiError } from '../client/api-error.js';
import { pathOf } from '../client/api-routes.js';
import type {
  OptionsResponse,
  StepDescription,
  TestRunRequest,
  TestRunResponse,
  UpgradeResponse,
} from '../client/api-types.js';
import { h, render } from '../dom/dom.js';
import { ToolstepsElement } from '../dom/toolsteps-element.js';
import { fieldFor } from '../forms/field-for.js';
import { checkField } from '../forms/field-value.js';
import type { FormField } from '../forms/form-field.js';
import { collectInput } from '../forms/form-input.js';
import { keptOnRedraw } from '../forms/kept-values.js';
import type { OptionsField } from '../forms/options-field.js';
import { type FieldSpec, fieldsOf } from '../forms/schema-fields.js';
import { showServerProblems } from '../forms/server-problems.js';
import { VariableInsert } from '../forms/variable-insert.js';
import { confirmationBox, writeConfirmation } from '../forms/write-confirmation.js';
import { integrationIcon } from '../views/integration-icons.js';
import { showTestResult } from '../views/test-result-view.js';

/**
 * A raw list of custom fields (a JSON box) whose fields the account's own
 * typed fields already offer: left out, so a person meets each field once.
 */
function typedElsewhere(spec: FieldSpec, description: StepDescription): boolean {
  return spec.kind === 'json' && /custom/.test(spec.name) && description.accountFields.length > 0;
}

/**
 * `<toolsteps-step-form step="ticketing.create_ticket" connection="...">`:
 * the step's input form, generated from its JSON Schema as the chosen
 * account has it (custom fields typed), required fields first and the
 * optional ones folded under "More options", dropdowns and multi-selects of
 * the account's choices, one "Insert variable" control for the field last
 * focused, inline messages from the same schema, and "Test step" (in a
 * footer that stays in view) with its "Test result". Fields left empty or
 * untouched are not sent.
 *
 * On a saved reference whose major is not the latest it shows "A newer
 * version is available" with what changes and the end date, and "Upgrade",
 * which sends the input through the step's migration (`upgradeStep`), draws
 * the latest major with the migrated input, and fires `toolsteps-change`
 * with the new reference for the embedder to save.
 *
 * Properties: `variables` (workflow variable name to sample value: offered
 * for insertion, and filled in on a test), `mapping` (variable name to
 * JSONPath, sent with a test), `value` (the input).
 * While it loads a step's form it carries `aria-busy="true"`.
 * Events: `toolsteps-change` ({ step, reference (`id@major`: what to save), input, valid }), `toolsteps-loaded`
 * ({ step: StepDescription }), `toolsteps-test-result` ({ ok, result?, error? }).
 * Parts: `upgrade`, `field`, `label`, `control`, `hint`, `problem`, `more-options`, `chips`, `choices`,
 * `insert-variable`, `actions`, `test`, `result`.
 */
export class ToolstepsStepForm extends ToolstepsElement {
  static readonly tag = 'toolsteps-step-form';
  static readonly observedAttributes = ['step', 'connection'];
  #fields: FormField[] = [];
  #description: StepDescription | undefined;
  #form!: HTMLFormElement;
  #title!: HTMLElement;
  #notice!: HTMLElement;
  /** The migrated input the next drawing starts from, after an upgrade. */
  #upgraded: Record<string, unknown> | undefined;
  #result!: HTMLElement;
  #confirm!: HTMLElement;
  #testButton!: HTMLButtonElement;
  readonly #insert = new VariableInsert();
  #variables: Record<string, unknown> = {};
  #loading = new AbortController();
  /** The account the form was last drawn for. */
  #drawnFor = '';
  /** Variable name to JSONPath over the output; sent with a test, replacing the step's defaults. */
  mapping: Record<string, string> | undefined;

  get description(): StepDescription | undefined {
    return this.#description;
  }

  get variables(): Record<string, unknown> {
    return this.#variables;
  }

  set variables(samples: Record<string, unknown>) {
    this.#variables = { ...samples };
    if (this.#description) this.#render(this.value);
  }

  /** The input as the step would get it; fields that do not fit are left out. */
  get value(): Record<string, unknown> {
    return collectInput(this.#fields, false).input;
  }

  set value(input: Record<string, unknown>) {
    for (const field of this.#fields) field.write(input[field.spec.name]);
  }

  /** Redraws the form when its step or connection attribute changes. */
  attributeChangedCallback(): void {
    if (this.#form && this.client) this.refresh();
  }

  protected override setup(): void {
    this.#title = h('h3', { part: 'heading' });
    this.#notice = h('div');
    this.#form = h('form', { part: 'form', noValidate: true, onsubmit: (e: Event) => this.#onTest(e) });
    this.#result = h('section', {
      part: 'result',
      'aria-label': 'Test result',
      className: 'result',
      tabIndex: -1,
    });
    this.#confirm = h('div');
    this.#testButton = h('button', { type: 'submit', className: 'primary', part: 'test' }, 'Test step');
    render(this.body, this.#title, this.#notice, this.#form, this.#result);
  }

  protected override refresh(): void {
    const step = this.getAttribute('step');
    if (!step) return;
    this.#loading.abort();
    this.#loading = new AbortController();
    const signal = this.#loading.signal;
    const kept = this.#upgraded ?? this.#keptValues(step);
    // Another step's test result would read as this one's: it goes with the step it came from.
    if (this.#description?.id !== step) render(this.#result);
    const upgraded = this.#upgraded !== undefined;
    this.#upgraded = undefined;
    // Busy until the form for this step and account is shown: assistive technology, and tests, wait for it.
    this.setAttribute('aria-busy', 'true');
    this.say('Loading the form…');
    void this.attempt(async () => {
      const connection = this.getAttribute('connection') || undefined;
      const description = await this.requireClient().get<StepDescription>(
        pathOf('describeStep', { stepId: step }),
        { connection },
        signal,
      );
      this.#description = description;
      this.#render(kept);
      this.say(connection ? '' : 'Choose an account to fill the account’s own fields and choices.');
      this.emit('toolsteps-loaded', { step: description });
      if (upgraded) this.#changed();
    }).finally(() => {
      if (!signal.aborted) this.removeAttribute('aria-busy');
    });
  }

  /** What a new drawing of the form keeps: nothing for another step; for another account, not its choices. */
  #keptValues(step: string): Record<string, unknown> {
    if (this.#description?.id !== step) return {};
    return keptOnRedraw(this.#fields, this.value, (this.getAttribute('connection') ?? '') === this.#drawnFor);
  }

  #render(kept: Record<string, unknown>): void {
    const description = this.#description!;
    render(this.#title, integrationIcon(description.integration), description.title);
    render(this.#notice, this.#upgradeNotice(description));
    const connection = this.getAttribute('connection') ?? '';
    this.#drawnFor = connection;
    // An account's own field is labelled with the account's title for it ("VIP customer"), not its property name.
    const accountTitles = new Map(description.accountFields.map((field) => [field.name, field.title]));
    this.#fields = fieldsOf(description.input)
      .filter((spec) => !typedElsewhere(spec, description))
      // Its hint would only repeat the title and the field's kind.
      .map((spec) =>
        accountTitles.has(spec.name)
          ? { ...spec, title: accountTitles.get(spec.name)!, description: undefined }
          : spec,
      )
      .map((spec) =>
        fieldFor(
          spec,
          spec.options && (connection || spec.options.fixed)
            ? (request) => this.#loadOptions(spec.name, request)
            : undefined,
          (error) => this.fail(error),
        ),
      );
    for (const field of this.#fields) field.write(kept[field.spec.name]);
    this.#confirm = writeConfirmation(description.access);
    this.#insert.show(this.#fields, Object.keys(this.#variables));
    const required = this.#fields.filter((field) => field.spec.required);
    const optional = this.#fields.filter((field) => !field.spec.required);
    // Optional fields stay folded unless one already holds a value (kept from the last drawing).
    const filled = optional.some((field) => kept[field.spec.name] !== undefined);
    render(
      this.#form,
      required.map((field) => field.element),
      optional.length
        ? h(
            'details',
            { part: 'more-options', className: 'more', open: filled },
            h('summary', null, `More options (${optional.length})`),
            optional.map((field) => field.element),
          )
        : null,
      h(
        'div',
        { className: 'actions', part: 'actions' },
        this.#confirm,
        h('div', { className: 'row' }, this.#insert.element, this.#testButton),
      ),
    );
    for (const field of this.#fields) {
      field.element.addEventListener('change', () => this.#onFieldChange(field));
      field.element.addEventListener('input', () => this.#changed());
    }
    for (const field of this.#fields) if ('refill' in field) void (field as OptionsField).refill();
  }

  /** "A newer version is available", on a major that is not the latest; nothing on the latest. */
  #upgradeNotice({ reference, majors, deprecated, changes }: StepDescription): HTMLElement | null {
    if (reference === majors[0]) return null;
    return h(
      'section',
      { part: 'upgrade', className: 'upgrade', 'aria-label': 'Newer version' },
      h('strong', null, 'A newer version is available'),
      deprecated && ` (this one is served until ${deprecated.endsOn})`,
      h(
        'ul',
        null,
        changes.map((change) => h('li', null, `${change.version}: ${change.line}`)),
      ),
      h('button', { type: 'button', onclick: () => void this.upgrade() }, 'Upgrade'),
    );
  }

  /** Upgrades the form's input to the latest major through the step's migration, then draws that major. */
  async upgrade(): Promise<void> {
    const answer = await this.attempt(() =>
      this.requireClient().post<UpgradeResponse>(pathOf('upgradeStep', { stepId: this.#description!.id }), {
        input: this.value,
      }),
    );
    if (!answer) return;
    this.#upgraded = answer.input;
    this.setAttribute('step', answer.reference);
  }

  #loadOptions(field: string, request: { query?: string; cursor?: string }): Promise<OptionsResponse> {
    const connection = this.getAttribute('connection') || undefined;
    return this.requireClient().post<OptionsResponse>(
      pathOf('stepOptions', { stepId: this.#description!.id }),
      { field, connection, ...request, input: collectInput(this.#fields, false).input },
    );
  }

  #onFieldChange(field: FormField): void {
    const checked = checkField(field.spec, field.read());
    field.setProblem(checked?.problem);
    // Fields whose choices depend on this one load them again.
    for (const other of this.#fields) {
      if (other.spec.options?.dependsOn.includes(field.spec.name) && 'reload' in other) {
        void (other as OptionsField).reload();
      }
    }
    this.#changed();
  }

  #changed(): void {
    const { input, problems } = collectInput(this.#fields, false);
    const described = this.#description;
    this.emit('toolsteps-change', {
      step: described?.id,
      reference: described?.reference,
      input,
      valid: !problems,
    });
  }

  #onTest(event: Event): void {
    event.preventDefault();
    void this.test();
  }

  /** Runs the step once as a test with the form's input; resolves with the result, or undefined. */
  async test(): Promise<TestRunResponse | undefined> {
    const description = this.#description;
    if (!description) return undefined;
    const { input, problems } = collectInput(this.#fields, true);
    if (problems) {
      this.fail(
        new Error(
          `${problems} field${problems === 1 ? '' : 's'} need${problems === 1 ? 's' : ''} a change before the test.`,
        ),
      );
      return undefined;
    }
    const connection = this.getAttribute('connection');
    if (!connection) {
      this.fail(new Error('Choose a connection before testing the step.'));
      return undefined;
    }
    const confirmWrite = confirmationBox(this.#confirm)?.checked ?? false;
    if (description.access !== 'read' && !confirmWrite) {
      this.fail(new Error('This step changes the account: tick the box to let the test really run.'));
      confirmationBox(this.#confirm)?.focus();
      return undefined;
    }
    const request: TestRunRequest = {
      connection,
      input,
      samples: this.#variables,
      ...(this.mapping ? { mapping: this.mapping, replaceVariables: true } : {}),
      confirmWrite,
    };
    this.say('Testing…');
    this.#testButton.disabled = true;
    this.#testButton.textContent = 'Testing…';
    try {
      const result = await this.requireClient().post<TestRunResponse>(
        pathOf('testStep', { stepId: description.id }),
        request,
      );
      showTestResult(this.#result, result);
      this.say('Test finished.');
      this.emit('toolsteps-test-result', { ok: true, result });
      return result;
    } catch (error) {
      showServerProblems(this.#fields, error);
      showTestResult(this.#result, undefined, error);
      this.fail(error);
      this.emit('toolsteps-test-result', {
        ok: false,
        error:
          error instanceof ApiError
            ? { code: error.code, message: error.message, needsReconnect: error.needsReconnect }
            : { code: 'error', message: (error as Error).message },
      });
      return undefined;
    } finally {
      this.#testButton.disabled = false;
      this.#testButton.textContent = 'Test step';
    }
  }

  protected override styles(): string {
    return `
      h3 { margin: 0 0 var(--_gap); font-size: 1.1em; }
      .required { color: var(--_danger); }
      h3 { display: flex; align-items: center; gap: var(--_gap); }
      .options-tools { margin-top: 4px; }
      .result:empty { display: none; }
      .upgrade { border: 1px solid var(--_border); border-radius: var(--_radius); padding: var(--_gap); margin-bottom: var(--_gap); }
      .result { margin-top: var(--_gap); }
      details.more { margin: 0 0 var(--_gap); border-top: 1px solid var(--_border); padding-top: var(--_gap); }
      details.more > summary { cursor: pointer; font-weight: 600; margin-bottom: var(--_gap); }
      .actions { position: sticky; bottom: 0; z-index: 1; background: var(--_surface);
        border-top: 1px solid var(--_border); padding: var(--_gap) 0; margin-top: var(--_gap); }
      .actions .confirm { margin-bottom: var(--_gap); }
      .actions .row { align-items: center; justify-content: space-between; }
      .variable-insert { display: flex; gap: var(--_gap); align-items: center; flex-wrap: wrap; }
      .insert-variable { width: auto; }
    `;
  }
}
