/**
 * The TypeScript type a JSON Schema (written `as const`) describes, for the subset the program
 * schema uses: so the program configuration type is derived from the one schema instead of being
 * written twice. `required` makes a property mandatory; every other property is optional.
 */
export type Infer<S> = S extends { readonly enum: readonly (infer E)[] }
  ? E
  : S extends { readonly const: infer C }
    ? C
    : S extends { readonly oneOf: readonly (infer O)[] }
      ? Infer<O>
      : S extends { readonly anyOf: readonly (infer O)[] }
        ? Infer<O>
        : S extends { readonly type: 'string' }
          ? string
          : S extends { readonly type: 'integer' | 'number' }
            ? number
            : S extends { readonly type: 'boolean' }
              ? boolean
              : S extends { readonly type: 'null' }
                ? null
                : S extends { readonly type: 'array'; readonly items: infer I }
                  ? Infer<I>[]
                  : S extends { readonly type: 'object'; readonly properties: infer P }
                    ? InferObject<P, S extends { readonly required: readonly (infer R)[] } ? R : never>
                    : S extends { readonly type: 'object'; readonly additionalProperties: infer A }
                      ? Record<string, Infer<A>>
                      : unknown;

type InferObject<P, R> = Flatten<{ -readonly [K in keyof P & R]: Infer<P[K]> } & { -readonly [K in Exclude<keyof P, R>]?: Infer<P[K]> }>;

type Flatten<T> = { [K in keyof T]: T[K] };
