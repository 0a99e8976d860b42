type Json = Record<string, unknown>;

/**
 * The program schema says "url is required when type is http" as `if/then: {required: [url]}`,
 * with `url` defined beside the `allOf`. Valid JSON Schema, but OpenAPI linters (Redocly's
 * no-required-schema-properties-undefined) look for the property inside the `then` itself. This
 * copies the definitions of the required properties into each such `then`, which changes nothing
 * a validator accepts, for the document only: validation keeps the schema as written.
 */
export function withConditionalProperties(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withConditionalProperties);
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Json = Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, withConditionalProperties(v)]));
  const properties = out.properties as Json | undefined;
  if (properties && Array.isArray(out.allOf)) {
    out.allOf = out.allOf.map((branch: Json) => {
      const then = branch.then as { required?: string[]; properties?: Json } | undefined;
      if (!then?.required || then.properties) return branch;
      const defined = then.required.filter((name) => name in properties);
      return { ...branch, then: { ...then, properties: Object.fromEntries(defined.map((name) => [name, properties[name]])) } };
    });
  }
  return out;
}
