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

/** The provider's company size bands (a company's `size_range`), smallest first. */
export const COMPANY_SIZES = [
  '1-10',
  '11-50',
  '51-200',
  '201-500',
  '501-1000',
  '1001-5000',
  '5001-10000',
  '10001+',
] as const;

export const companySizeOptions = fixedOptions(
  COMPANY_SIZES.map((size) => ({ value: size, label: `${size} employees` })),
);

const PLACES = [
  ['Australia', 'Australia', 'country'],
  ['New Zealand', 'New Zealand', 'country'],
  ['NSW', 'New South Wales', 'state'],
  ['VIC', 'Victoria', 'state'],
  ['QLD', 'Queensland', 'state'],
  ['WA', 'Western Australia', 'state'],
  ['SA', 'South Australia', 'state'],
  ['TAS', 'Tasmania', 'state'],
  ['ACT', 'Australian Capital Territory', 'territory'],
  ['NT', 'Northern Territory', 'territory'],
] as const;

/**
 * Countries and Australian states and territories for the location filter,
 * a state by the code the provider's records carry (NSW); a city is typed as text.
 */
export const locationOptions = fixedOptions(
  PLACES.map(([value, label, description]) => ({ value, label, description })),
);
