/** Addresses of the public pages (schema-free: browser code may import it). */

/** A suite's canonical detail page (the spec's spelling). */
export const suitePath = (id: number) => `/sutie/${id}.html`;

/** A category's page, by its slug. */
export const categoryPath = (diyname: string) => `/sort/${diyname}`;
