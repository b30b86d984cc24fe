import { describe, expect, it } from 'vitest';
import { parsePostgresUrl } from './database';

describe('parsePostgresUrl', () => {
  it('takes the schema from ?schema= and removes it from the connection string', () => {
    expect(parsePostgresUrl('postgres://u@h:5432/db?schema=run_1&sslmode=disable')).toEqual({
      connectionString: 'postgres://u@h:5432/db?sslmode=disable',
      schema: 'run_1',
    });
  });

  it('understands options=-c search_path=…', () => {
    expect(parsePostgresUrl('postgres://u@h/db?options=-c%20search_path%3Dother').schema).toBe('other');
    expect(parsePostgresUrl('postgres://u@h/db').schema).toBeUndefined();
  });

  it('refuses schema names that are not plain identifiers', () => {
    expect(() => parsePostgresUrl('postgres://u@h/db?schema=a";drop')).toThrow();
  });
});
