import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { csvRecords, readInput, recordListField } from '../../../cli/commands/run-step-action.js';
import { runCli } from '../../../cli/program.js';
import { CONTACT_DATA_SANDBOX_KEY, type Sandbox } from '../../../sandbox/index.js';
import { createRegistry } from '../../../steps/index.js';
import { addConnection, closeCliWorld, openCliWorld } from '../../cli/cli-harness.js';

const registry = createRegistry();
const enrichContacts = registry.requireStep('contact_data.enrich_contacts');
const PERSON_FIELDS = ['email', 'profile_url', 'first_name', 'last_name', 'company'];

describe('bulk input from CSV and JSON files', () => {
  it('finds the record list of bulk steps, and none elsewhere', () => {
    expect(recordListField(enrichContacts)).toEqual({ name: 'contacts', fields: PERSON_FIELDS });
    expect(recordListField(registry.requireStep('contact_data.enrich_companies'))).toEqual({
      name: 'companies',
      fields: ['domain', 'name'],
    });
    expect(recordListField(registry.requireStep('contact_data.find_contact'))).toBeUndefined();
  });

  it('maps columns to fields by normalized header; empty cells are left out', () => {
    const text =
      '\uFEFFEmail,First Name,LAST_NAME,Company\nann@acme.example,,,\n,Bo,"Lee, Jr.","Acme, Inc."\n\n';
    expect(csvRecords(text, PERSON_FIELDS)).toEqual([
      { email: 'ann@acme.example' },
      { first_name: 'Bo', last_name: 'Lee, Jr.', company: 'Acme, Inc.' },
    ]);
  });

  it('maps or drops columns explicitly, and refuses columns that map to nothing', () => {
    const text = 'Work Email,Notes,Owner\nann@acme.example,vip,sam\n';
    expect(() => csvRecords(text, PERSON_FIELDS)).toThrow(/"Work Email" maps to no field.*"Notes".*"Owner"/);
    expect(csvRecords(text, PERSON_FIELDS, { 'Work Email': 'email', Notes: '', owner: '' })).toEqual([
      { email: 'ann@acme.example' },
    ]);
    expect(() => csvRecords('email,Email\na@b.example,c@d.example\n', PERSON_FIELDS)).toThrow(
      /second column/,
    );
    expect(() => csvRecords('email,company\n"unclosed\n', PERSON_FIELDS)).toThrow(/could not be read/);
  });

  it('turns a CSV file or a bare JSON array into the step input, with --with for the other fields', async () => {
    const folder = await mkdtemp(path.join(os.tmpdir(), 'toolsteps-csv-'));
    try {
      await writeFile(path.join(folder, 'people.csv'), 'email\nann@acme.example\n');
      await writeFile(path.join(folder, 'people.json'), '[{"email":"bo@acme.example"}]');
      expect(
        await readInput(`@${path.join(folder, 'people.csv')}`, enrichContacts, { with: '{"batch_size":50}' }),
      ).toEqual({
        batch_size: 50,
        contacts: [{ email: 'ann@acme.example' }],
      });
      expect(await readInput(`@${path.join(folder, 'people.json')}`, enrichContacts)).toEqual({
        contacts: [{ email: 'bo@acme.example' }],
      });
      expect(await readInput('{"contacts":[]}', enrichContacts)).toEqual({ contacts: [] });
      await expect(
        readInput(`@${path.join(folder, 'people.csv')}`, registry.requireStep('contact_data.find_contact')),
      ).rejects.toMatchObject({ code: 'input_invalid' });
      await expect(readInput(`@${path.join(folder, 'missing.csv')}`, enrichContacts)).rejects.toMatchObject({
        code: 'input_invalid',
      });
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});

describe('toolsteps run with a CSV file', () => {
  let home: string;
  let sandbox: Sandbox;
  beforeAll(async () => {
    ({ home, sandbox } = await openCliWorld('toolsteps-cd-cli-'));
  });
  afterAll(() => closeCliWorld({ home, sandbox }, 'CD_SANDBOX_KEY'));

  async function cli(args: string[], tty = false) {
    let out = '';
    let err = '';
    const stdout = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      out += String(chunk);
      return true;
    });
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      err += String(chunk);
      return true;
    });
    const wasTty = process.stderr.isTTY;
    Object.defineProperty(process.stderr, 'isTTY', { value: tty, configurable: true });
    try {
      return { code: await runCli(args), out, err };
    } finally {
      Object.defineProperty(process.stderr, 'isTTY', { value: wasTty, configurable: true });
      stdout.mockRestore();
      stderr.mockRestore();
      process.exitCode = undefined;
    }
  }

  it('enriches the rows of people.csv, in order, with a progress bar on a terminal', async () => {
    const added = await addConnection(
      'contact_data',
      'cd',
      { env: 'CD_SANDBOX_KEY', value: CONTACT_DATA_SANDBOX_KEY, flag: '--api-key-env' },
      '--base-url',
      sandbox.baseUrl('contact-data'),
    );
    expect(added.code).toBe(0);
    const people = sandbox.contactData.directory.people;
    const file = path.join(home, 'people.csv');
    await writeFile(
      file,
      [
        'Email,First Name,Last Name,Company,Notes',
        `${people[0]!.emailAddresses[0]!.email},,,,first`,
        ',Ben,Abbott,Contoso Analytics,second',
        'nobody@unknown.example,,,,third',
      ].join('\n'),
    );
    const enrichFromFile = (flags: string[], tty = false) =>
      cli(
        ['run', 'contact_data.enrich_contacts', '--connection', 'cd', '--input', `@${file}`, ...flags],
        tty,
      );
    const run = await enrichFromFile(['--column', 'Notes=', '--with', '{"batch_size":1}', '--json'], true);
    expect(run.code).toBe(0);
    const result = JSON.parse(run.out);
    expect(result.output.results.map((entry: { status: string }) => entry.status)).toEqual([
      'matched',
      'matched',
      'no_match',
    ]);
    expect(result.output.results[1].input).toEqual({
      first_name: 'Ben',
      last_name: 'Abbott',
      company: 'Contoso Analytics',
    });
    expect(result.meta.credits.charged).toBe(3);
    expect(run.err).toContain('] 3/3');
    expect(run.out).not.toContain(CONTACT_DATA_SANDBOX_KEY);

    const unmapped = await enrichFromFile([]);
    expect(unmapped.code).toBe(2);
    expect(unmapped.err).toContain('"Notes" maps to no field');
  });
});
