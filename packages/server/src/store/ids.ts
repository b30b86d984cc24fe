import { randomByte } from '../randomPool';

const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** Random [a-z0-9] string; rejection sampling keeps every character equally likely. */
export function randomAlphanumeric(length: number): string {
  let result = '';
  while (result.length < length) {
    const byte = randomByte();
    if (byte < 252) result += alphabet[byte % 36];
  }
  return result;
}

/** Record ids are 15 characters of [a-z0-9], as PocketBase makes them. */
export function newRecordId(): string {
  return randomAlphanumeric(15);
}

export const recordIdPattern = /^[a-z0-9]{15}$/;

/** PocketBase's datetime format: `YYYY-MM-DD HH:MM:SS.sssZ` in UTC; sorts as text. */
export function formatTimestamp(date: Date): string {
  return date.toISOString().replace('T', ' ');
}
