import { fixedOptions } from '../../../src/kit/index.js';

/**
 * The closed lists behind People Search's seniority and department: the
 * provider's own level and function keys (what its records carry, as the
 * sandbox's people do), offered without a request.
 */
export const seniorityOptions = fixedOptions([
  { value: 'owner', label: 'Owner' },
  { value: 'founder', label: 'Founder' },
  {
    value: 'c_suite',
    label: 'C-suite',
    description: 'chief executive, technology, finance, managing partner',
  },
  { value: 'partner', label: 'Partner' },
  { value: 'vp', label: 'Vice president' },
  { value: 'head', label: 'Head of' },
  { value: 'director', label: 'Director' },
  { value: 'manager', label: 'Manager' },
  { value: 'senior', label: 'Senior' },
  { value: 'entry', label: 'Entry level' },
  { value: 'intern', label: 'Intern' },
]);

const DEPARTMENTS = [
  ['executive', 'Executive'],
  ['engineering', 'Engineering'],
  ['product', 'Product'],
  ['design', 'Design'],
  ['sales', 'Sales'],
  ['marketing', 'Marketing'],
  ['customer_success', 'Customer success'],
  ['operations', 'Operations'],
  ['finance', 'Finance'],
  ['legal', 'Legal'],
  ['human_resources', 'Human resources'],
  ['it', 'Information technology'],
  ['data_science', 'Data science'],
  ['education', 'Education'],
  ['medical', 'Medical and health'],
] as const;

export const departmentOptions = fixedOptions(DEPARTMENTS.map(([value, label]) => ({ value, label })));
