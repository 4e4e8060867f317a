// The spec's storage file name: "<timestamp>_<original name>", whitespace turned to underscores,
// anything but letters, digits, underscore and dot removed.

export function sanitiseFileName(original: string): string {
  return original.replace(/\s+/g, '_').replace(/[^A-Za-z0-9_.]/g, '');
}

export function storageFileName(original: string, now: Date = new Date()): string {
  const cleaned = sanitiseFileName(original) || 'image';
  return `${now.getTime()}_${cleaned}`;
}
