/**
 * Each integration's icon: a small SVG drawn for the kit (a ticket, a rocket,
 * a contact card, a bar chart, a shield; no provider's logo), white on a
 * coloured tile. It is decoration beside the integration's name, so it is
 * hidden from assistive technology. A host page restyles or hides it with
 * `::part(icon)`.
 */
const DRAWINGS: Record<string, { colour: string; path: string }> = {
  ticketing: {
    colour: '#0f766e',
    path: 'M4 7h16v3a2 2 0 0 0 0 4v3H4v-3a2 2 0 0 0 0-4zM9 7v10',
  },
  deployments: {
    colour: '#1f2328',
    path: 'M12 3c3 2 4.5 5 4 9l-2 3h-4l-2-3c-.5-4 1-7 4-9zM10 18l2 3 2-3M12 8v2',
  },
  contact_data: {
    colour: '#6d28d9',
    path: 'M4 6h16v12H4zM9 11a2 2 0 1 0 0-.01M6.5 16c.5-1.5 1.5-2 2.5-2s2 .5 2.5 2M14 10h4M14 13h3',
  },
  anz_data: {
    colour: '#b45309',
    path: 'M5 19h14M7 16v-4M11 16V8M15 16v-6M19 16V6',
  },
  governance: {
    colour: '#1d4ed8',
    path: 'M12 3l7 3v5c0 4.5-3 8-7 10-4-2-7-5.5-7-10V6zM9 12l2 2 4-4',
  },
};

const FALLBACK = { colour: '#57606a', path: 'M7 7h10v10H7zM10 10h4v4h-4' };

const SVG = 'http://www.w3.org/2000/svg';

function svgElement<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attributes: Record<string, string>,
): SVGElementTagNameMap[K] {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  return element;
}

/** The icon of `integration` (an id), at the text's size; a plain tile for one the kit has no drawing of. */
export function integrationIcon(integration: string): SVGSVGElement {
  const { colour, path } = DRAWINGS[integration] ?? FALLBACK;
  const svg = svgElement('svg', {
    viewBox: '0 0 24 24',
    width: '1.5em',
    height: '1.5em',
    part: 'icon',
    class: 'icon',
    'aria-hidden': 'true',
    focusable: 'false',
  });
  svg.append(
    svgElement('rect', { width: '24', height: '24', rx: '5', fill: colour }),
    svgElement('path', {
      d: path,
      fill: 'none',
      stroke: '#fff',
      'stroke-width': '1.6',
      'stroke-linecap': 'round',
      'stroke-linejoin': 'round',
    }),
  );
  return svg;
}
