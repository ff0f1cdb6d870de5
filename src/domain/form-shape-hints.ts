/**
 * What shape a field of a server-defined form expects, in words (issue 32: the Add Identification
 * form said "Does not have the expected shape (see the hint)" under a hint that did not give it).
 * The form's JSON Schema states each conditional shape with its pattern and a `description` of it
 * (the licence number for NSW, the passport number for Australia, the expiry of a green Medicare
 * card); these rules read that description for the branch the person's answers chose, for the
 * field's hint and for its error.
 */

export const unknownShapeMessage = 'Does not have the expected shape.';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

const descriptionOf = (value: unknown): string | undefined =>
  isObject(value) && typeof value.description === 'string' && value.description !== '' ? value.description : undefined;

/**
 * The description beside the keyword that failed: `schemaPath` is the validator's
 * ('#/allOf/3/then/properties/LicenceNumber/pattern'); the description sits in the same schema.
 */
export function failedShapeDescription(schema: unknown, schemaPath: string | undefined): string | undefined {
  if (!schemaPath?.startsWith('#/')) return undefined;
  const steps = schemaPath.slice(2).split('/').slice(0, -1).map((step) => step.replaceAll('~1', '/').replaceAll('~0', '~'));
  let at: unknown = schema;
  for (const step of steps) {
    if (Array.isArray(at)) at = at[Number(step)];
    else if (isObject(at)) at = at[step];
    else return undefined;
  }
  return descriptionOf(at);
}

/** The error for a value of the wrong shape: the shape in words when the schema gives it. */
export function shapeErrorMessage(schema: unknown, schemaPath: string | undefined): string {
  const description = failedShapeDescription(schema, schemaPath);
  return description ? `Expected: ${description}.` : unknownShapeMessage;
}

/** Whether `data` meets an `if` made of `const` properties (the only conditions these forms use). */
function meets(condition: unknown, data: Json): boolean {
  if (!isObject(condition) || !isObject(condition.properties)) return false;
  return Object.entries(condition.properties).every(([name, rule]) => isObject(rule) && 'const' in rule && data[name] === rule.const);
}

/**
 * Each field's hint for the answers so far: the description from the most specific branch that
 * applies (the chosen state's beats the licence's own), else the field's own description.
 */
export function shapeHints(schema: unknown, formData: Json): Record<string, string> {
  const hints: Record<string, string> = {};
  if (!isObject(schema)) return hints;
  const take = (properties: unknown) => {
    if (!isObject(properties)) return;
    for (const [name, property] of Object.entries(properties)) {
      const description = descriptionOf(property);
      if (description) hints[name] = description;
    }
  };
  take(schema.properties);
  const branches = Array.isArray(schema.allOf) ? schema.allOf : [];
  // Branches are written general first (the document type), then specific (its state): later wins.
  for (const branch of branches) if (isObject(branch) && isObject(branch.then) && meets(branch.if, formData)) take(branch.then.properties);
  return hints;
}
