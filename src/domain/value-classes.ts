/**
 * Closed sets of values a job's settings take: file formats, currencies, languages, deployment
 * environments, compression codecs, key algorithms. A word of one says which setting it is for,
 * as an e-mail address does: "… as a PDF" against a plan that always renders `csv` names another
 * format, though neither word is shaped like an identifier.
 */

/** A member's spellings: the first is its name; `codes` are only read as a stored value, never in a task's words. */
interface Member {
  spellings: readonly string[];
  codes?: readonly string[];
}

const members = (...spellings: ReadonlyArray<string | readonly string[]>): Member[] =>
  spellings.map((s) => ({ spellings: typeof s === 'string' ? [s] : s }));

/** A language's name as tasks write it, and its ISO 639-1 code as settings hold it ("in it" is not Italian). */
const language = (name: string, code: string): Member => ({ spellings: [name], codes: [code] });

const CLASSES: Record<string, Member[]> = {
  'file format': members('csv', 'tsv', 'pdf', ['xlsx', 'excel'], 'xls', 'json', ['jsonl', 'ndjson'], 'parquet', 'avro', 'orc', 'xml', 'html', ['markdown', 'md'], ['yaml', 'yml'], 'docx', 'txt'),
  currency: members('usd', 'eur', 'gbp', 'jpy', 'chf', 'cad', 'aud', 'nzd', 'cny', 'inr', 'sek', 'nok', 'dkk', 'pln', 'brl', 'mxn', 'sgd', 'hkd', 'zar'),
  language: [
    language('english', 'en'),
    language('spanish', 'es'),
    language('french', 'fr'),
    language('german', 'de'),
    language('italian', 'it'),
    language('portuguese', 'pt'),
    language('dutch', 'nl'),
    language('swedish', 'sv'),
    language('polish', 'pl'),
    language('russian', 'ru'),
    language('turkish', 'tr'),
    language('arabic', 'ar'),
    language('hindi', 'hi'),
    language('japanese', 'ja'),
    language('korean', 'ko'),
    language('chinese', 'zh'),
  ],
  environment: members(['production', 'prod'], 'staging', ['development', 'dev'], 'qa', 'uat', 'sandbox', ['preprod', 'pre-production']),
  compression: members(['gzip', 'gz'], 'zstd', ['bzip2', 'bz2'], 'lz4', 'xz', 'snappy', 'brotli'),
  'key algorithm': members('rsa', 'ed25519', 'ecdsa'),
  'deployment strategy': members('rolling', ['blue-green', 'blue/green'], 'canary', 'recreate'),
  priority: members('p0', 'p1', 'p2', 'p3', 'p4', 'p5'),
  severity: members('sev0', 'sev1', 'sev2', 'sev3', 'sev4', 'sev5'),
  visibility: members('public', 'private', 'internal', 'unlisted'),
  period: members('hourly', ['daily', 'nightly'], 'weekly', ['biweekly', 'fortnightly'], 'monthly', 'quarterly', ['yearly', 'annual', 'annually']),
};

/**
 * Words one of a class must follow, an article aside, to say where the job runs: "deploy to
 * prod", "in staging", not "the dev team" or "the production incident".
 */
const LEAD_WORDS: Readonly<Record<string, ReadonlySet<string>>> = {
  environment: new Set(['to', 'in', 'on', 'into', 'onto', 'against', 'at']),
};

/** Each spelling's class and member name: as a stored value (codes too), and as a task's word. */
const STORED = new Map<string, { kind: string; member: string }>();
const WRITTEN = new Map<string, { kind: string; member: string }>();
for (const [kind, list] of Object.entries(CLASSES)) {
  for (const { spellings, codes = [] } of list) {
    const entry = { kind, member: spellings[0]! };
    for (const spelling of spellings) {
      WRITTEN.set(spelling, entry);
      STORED.set(spelling, entry);
    }
    for (const code of codes) STORED.set(code, entry);
  }
}

/**
 * The closed class a value belongs to and its member (`prod` → environment, production), in
 * any case; `inText` reads a task's word, where codes as common as "it" or "de" say nothing.
 */
export function valueClass(value: string, inText = false): { kind: string; member: string } | undefined {
  const lower = value.toLowerCase();
  if (!inText) return STORED.get(lower) ?? STORED.get(LOCALE.exec(lower)?.[1] ?? '');
  // An amount names its currency by its sign: "$40", "€12.50".
  const sign = CURRENCY_SIGNS[value[0] ?? ''];
  if (sign && /^\S\d/.test(value)) return STORED.get(sign);
  // A plural names its members too: "as CSVs".
  return WRITTEN.get(lower) ?? (lower.length > 3 && lower.endsWith('s') ? WRITTEN.get(lower.slice(0, -1)) : undefined);
}

const CURRENCY_SIGNS: Readonly<Record<string, string>> = { $: 'usd', '€': 'eur', '£': 'gbp', '¥': 'jpy' };

/** A locale (`en-US`, `pt_BR`) is its language. */
const LOCALE = /^([a-z]{2})[-_][a-z]{2}$/;

/** Words a class's member must follow in a task (LEAD_WORDS), if its class has them. */
export const classLeadWords = (kind: string): ReadonlySet<string> | undefined => LEAD_WORDS[kind];

/** Cloud regions (AWS's codes) by the place tasks call them by: "in Frankfurt" is eu-central-1. */
const REGION_PLACES: Readonly<Record<string, readonly string[]>> = {
  'us-east-1': ['virginia'],
  'us-east-2': ['ohio'],
  'us-west-1': ['california'],
  'us-west-2': ['oregon'],
  'ca-central-1': ['canada', 'montreal'],
  'eu-west-1': ['ireland', 'dublin'],
  'eu-west-2': ['london'],
  'eu-west-3': ['paris'],
  'eu-central-1': ['frankfurt'],
  'eu-north-1': ['stockholm'],
  'eu-south-1': ['milan'],
  'ap-south-1': ['mumbai'],
  'ap-southeast-1': ['singapore'],
  'ap-southeast-2': ['sydney'],
  'ap-northeast-1': ['tokyo'],
  'ap-northeast-2': ['seoul'],
  'sa-east-1': ['brazil'],
};
const REGION_OF_PLACE = new Map(Object.entries(REGION_PLACES).flatMap(([region, places]) => places.map((place) => [place, region] as const)));

/** The region a task's word names by its place ("Ireland" → eu-west-1), if one. */
export const regionOfPlace = (word: string): string | undefined => REGION_OF_PLACE.get(word.toLowerCase());

/** Words a place must follow to name where the job runs ("in Frankfurt", not "the Frankfurt office"). */
export const PLACE_LEAD_WORDS: ReadonlySet<string> = new Set(['to', 'in', 'into', 'at']);
