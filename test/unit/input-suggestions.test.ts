import { describe, expect, it } from 'vitest';
import { valueShape } from '../../src/domain/input-suggestions';
import { contradictedInputs, overriddenDefaults, suggestInputs } from '../../src/domain/input-disagreements';
import { RESEARCH_INPUTS_SCHEMA, RESEARCH_PHRASINGS } from '../fixtures/research-plan';

const schema = (properties: Record<string, unknown>, required = Object.keys(properties)) => ({ type: 'object', required, properties });
const ticket = { type: 'string', examples: ['T-103', 'T-100'] };

describe('inputs read off the task text', () => {
  it('shapes values by their runs of capitals, small letters and digits', () => {
    expect(valueShape('T-102')).toBe('A-9');
    expect(valueShape('https://github.com/acme/api')).toBe('a://a.a/a/a');
    expect(valueShape('INV-2041-b')).toBe('A-9-a');
  });

  it('offers the one word shaped like the examples, without its punctuation', () => {
    expect(suggestInputs(schema({ ticket_id: ticket }), 'customer on ticket T-102, wants a refund', {})).toEqual({ ticket_id: 'T-102' });
    const repo = { type: 'string', examples: ['https://github.com/acme/api'] };
    expect(suggestInputs(schema({ url: repo }), 'set up "https://github.com/globex/web" and test it', {})).toEqual({ url: 'https://github.com/globex/web' });
  });

  it('offers nothing for an input given, optional, not a string, or without examples', () => {
    const task = 'refund T-102';
    expect(suggestInputs(schema({ ticket_id: ticket }), task, { ticket_id: 'T-1' })).toEqual({});
    expect(suggestInputs(schema({ ticket_id: ticket }, []), task, {})).toEqual({});
    expect(suggestInputs(schema({ ticket_id: { ...ticket, type: 'number' } }), task, {})).toEqual({});
    expect(suggestInputs(schema({ ticket_id: { type: 'string' } }), task, {})).toEqual({});
  });

  it('never offers a filler word standing where a value stood', () => {
    const tier = { type: 'string', examples: ['gold'] };
    // "tier gold" read after "tier" in "the tier to platinum" would be "to".
    expect(suggestInputs(schema({ tier }), 'set the tier to platinum for acme-corp', {}, ['Move acme-corp to tier gold'])).toEqual({});
    expect(suggestInputs(schema({ tier }), 'Move globex to tier silver', {}, ['Move acme-corp to tier gold'])).toEqual({ tier: 'silver' });
    const service = { type: 'string', examples: ['billing'] };
    for (const task of ['restart now', 'restart everything']) expect(suggestInputs(schema({ service }), task, {}, ['restart billing']), task).toEqual({});
    expect(suggestInputs(schema({ service }), 'restart search', {}, ['restart billing'])).toEqual({ service: 'search' });
  });

  it('offers nothing when the guess would be a coin toss', () => {
    // Two words of the shape.
    expect(suggestInputs(schema({ ticket_id: ticket }), 'merge T-102 into T-100', {})).toEqual({});
    // Plain words: any word of the task would do.
    expect(suggestInputs(schema({ branch: { type: 'string', examples: ['main', 'develop'] } }), 'deploy the release branch', {})).toEqual({});
    // One word two inputs would both take.
    const both = schema({ from: ticket, to: ticket });
    expect(suggestInputs(both, 'link T-102 please', {})).toEqual({});
  });

  it('lets where an example stood settle two words of its shape', () => {
    const to = schema({ to: { type: 'string', examples: ['team@example.com'] } });
    const phrasings = ['mail the digest to team@example.com today'];
    expect(suggestInputs(to, 'mail the digest to eng-all@example.com today, cc boss@example.com', {}, phrasings)).toEqual({ to: 'eng-all@example.com' });
    // Without a phrasing, the shape alone cannot choose.
    expect(suggestInputs(to, 'mail the digest to eng-all@example.com today, cc boss@example.com', {})).toEqual({});
  });

  describe('where the learned phrasings held the examples', () => {
    const research = RESEARCH_INPUTS_SCHEMA;
    const phrasings = RESEARCH_PHRASINGS;

    it('reads the words between the same neighbours, a quotation after the same word, and numbers as the input’s type', () => {
      const task = 'find out what postgres vacuum does, summarise in 10 words, save as note "Vacuum 2"';
      expect(suggestInputs(research, task, {}, phrasings)).toEqual({ query: 'postgres vacuum', title: 'Vacuum 2', max_words: 10 });
      expect(suggestInputs(research, 'Research how kafka rebalancing works and save a short note titled “Kafka rebalancing”', {}, phrasings)).toEqual({
        query: 'kafka rebalancing',
        title: 'Kafka rebalancing',
      });
    });

    it('offers nothing the neighbours do not pin down', () => {
      // No stored neighbours around any value; an input given is never offered.
      expect(suggestInputs(research, 'save a note about go gc', {}, phrasings)).toEqual({});
      expect(suggestInputs(research, 'summarise in 10 words', { max_words: 5 }, phrasings)).toEqual({});
      // Not a number where the integer stood.
      expect(suggestInputs(research, 'summarise in few words', {}, phrasings)).toEqual({});
      // Two different quotations after the same word.
      expect(suggestInputs(research, 'a note "A" and a note "B"', {}, phrasings)).toEqual({});
      // One neighbour only, and a weak one: the value ended the phrasing after "the".
      const branch = schema({ branch: { type: 'string', examples: ['develop'] } });
      expect(suggestInputs(branch, 'ship the release', {}, ['ship the develop'])).toEqual({});
      expect(suggestInputs(branch, 'deploy branch release', {}, ['deploy branch develop'])).toEqual({ branch: 'release' });
      // After a preposition, a value that ends both texts stands where the example stood.
      const env = schema({ env: { type: 'string', examples: ['staging'] } });
      expect(suggestInputs(env, 'deploy build 4521 to production', {}, ['deploy build 4412 to staging'])).toEqual({ env: 'production' });
      expect(suggestInputs(env, 'deploy build 4521 to production now', {}, ['deploy build 4412 to staging'])).toEqual({});
    });

    it('reads the word of the examples\' shape out of longer words between their neighbours, and no value of another kind', () => {
      const scale = schema({ region: { type: 'string', examples: ['eu-west-1', 'us-east-2'] }, replicas: { type: 'integer', examples: [6, 3] } });
      const scaled = ['Scale the checkout deployment in eu-west-1 to 6 pods'];
      expect(suggestInputs(scale, 'Scale the payments deployment in us-east-2 up to 8 pods', {}, scaled)).toEqual({ region: 'us-east-2', replicas: 8 });
      // A plain-word example has no shape to pick one word by: the words between stay whole.
      const team = schema({ team: { type: 'string', examples: ['billing'] } });
      expect(suggestInputs(team, 'page the site reliability team now', {}, ['page the billing team now'])).toEqual({ team: 'site reliability' });
      // An e-mail address where a channel stood is not a channel, nor a channel where an address stood.
      const post = schema({ channel: { type: 'string', examples: ['#sales', '#sales-emea'] } });
      expect(suggestInputs(post, 'Email the weekly sales report for EMEA to cfo@corp.example', {}, ['Post the weekly sales report for EMEA to #sales'])).toEqual({});
      expect(suggestInputs(post, 'Post the weekly sales report for EMEA to #finance', {}, ['Post the weekly sales report for EMEA to #sales'])).toEqual({ channel: '#finance' });
      const mail = schema({ to: { type: 'string', examples: ['cfo@corp.example'] } });
      expect(suggestInputs(mail, 'Mail the weekly sales report to #finance', {}, ['Mail the weekly sales report to cfo@corp.example'])).toEqual({});
    });

    it('reads an input named in the task beside its own name when no phrasing places it', () => {
      const rollout = schema({ deployment: { type: 'string', examples: ['checkout', 'payments'] }, max_surge: { type: 'integer', examples: [25, 50] } });
      const rolled = ['Roll out checkout with max surge 25'];
      // `payments`, one of its examples, is the deployment where the task says it.
      expect(suggestInputs(rollout, 'Start a rolling update of payments, max surge of 30 please', {}, rolled)).toEqual({ deployment: 'payments', max_surge: 30 });
      // In the unit the name gives, and only as its type takes it.
      const wait = schema({ timeout_s: { type: 'integer', examples: [600] } });
      expect(suggestInputs(wait, 'drain the node with a 20 minute timeout', {}, ['drain node-7'])).toEqual({ timeout_s: 1200 });
      expect(suggestInputs(wait, 'drain the node with a generous timeout', {}, ['drain node-7'])).toEqual({});
      // A word after the name as its value, before it only with a digit ("the release branch" may not be one named so); never a value of another kind.
      const ns = schema({ namespace: { type: 'string', examples: ['payments'] } });
      expect(suggestInputs(ns, 'restart the pods, namespace staging', {}, ['restart the pods'])).toEqual({ namespace: 'staging' });
      expect(suggestInputs(ns, 'restart the pods in the staging namespace', {}, ['restart the pods'])).toEqual({});
      expect(suggestInputs(ns, 'restart the pods in the team-7 namespace', {}, ['restart the pods'])).toEqual({ namespace: 'team-7' });
      const channel = schema({ channel: { type: 'string', examples: ['#ops'] } });
      expect(suggestInputs(channel, 'post the digest, channel: bob@corp.example', {}, ['post the digest'])).toEqual({});
      expect(suggestInputs(channel, 'post the digest, channel: #eng', {}, ['post the digest'])).toEqual({ channel: '#eng' });
      // A value the caller gave another input is that input's.
      const two = schema({ replicas: { type: 'integer', examples: [3] }, max_surge: { type: 'integer', examples: [1] } });
      expect(suggestInputs(two, 'scale to replicas 4 with surge 4', { replicas: 4 }, ['scale'])).toEqual({});
    });

    it('reads a plain example or enum value where the task says it, when the phrasings do not place it', () => {
      const refund = schema({ amount: { type: 'number', examples: [99] }, currency: { type: 'string', examples: ['USD'] } });
      const stored = ['Refund order 560143 for customer C-4410, amount 99 USD'];
      expect(suggestInputs(refund, 'Refund order 560144 for customer C-4410, amount 75.25 EUR', {}, stored)).toEqual({ amount: 75.25 });
      const both = schema({ currency: { type: 'string', examples: ['USD', 'EUR'] } });
      expect(suggestInputs(both, 'Refund order 560144, amount 75.25 EUR', {}, stored)).toEqual({ currency: 'EUR' });
      expect(suggestInputs(both, 'Refund 75 EUR, not USD', {}, stored)).toEqual({});
      const env = schema({ namespace: { type: 'string', enum: ['staging', 'production'] } });
      expect(suggestInputs(env, 'Deploy build 6010 of search-api to production', {}, ['Deploy build 6003 of search-api'])).toEqual({ namespace: 'production' });
    });

    it('reads a name before a possessive as the name alone', () => {
      const reviewer = schema({ reviewer: { type: 'string', examples: ['dana'] } });
      const stored = ['Summarize incident INC-3071 for dana’s weekly review'];
      expect(suggestInputs(reviewer, "Summarize incident INC-4410 for priya's weekly review", {}, stored)).toEqual({ reviewer: 'priya' });
    });
  });
});

describe('a default the task overrides', () => {
  const report = schema(
    { report: { type: 'string', examples: ['weekly'] }, to: { type: 'string', examples: ['team@example.com'], default: 'team@example.com' } },
    ['report'],
  );
  it('is an input left out whose default differs from the value the task names for it', () => {
    expect(overriddenDefaults(report, 'send the weekly report to eng-all@example.com', { report: 'weekly' })).toEqual([
      { name: 'to', named: 'eng-all@example.com', default: 'team@example.com' },
    ]);
  });

  it('reads a knob named beside its own name, in its unit', () => {
    const sales = schema(
      { region: { type: 'string', examples: ['EMEA', 'APAC'] }, page_size: { type: 'integer', examples: [500, 250], default: 500 }, timeout_s: { type: 'integer', examples: [600], default: 600 } },
      ['region', 'page_size', 'timeout_s'],
    );
    const built = ['Build the weekly sales report for EMEA and post it to #sales'];
    const read = (task: string, given = {}) => overriddenDefaults(sales, task, given, built).map((o) => `${o.name}=${o.named}`);
    expect(read('Build the weekly sales report for APAC with page size 200')).toEqual(['page_size=200']);
    expect(read('Build the weekly sales report for APAC, 200 rows per page, with a 20 minute timeout')).toEqual(['timeout_s=1200']);
    expect(read('Build the weekly sales report for APAC with page size 500 and a 10 minute timeout')).toEqual([]);
    expect(read('Build the weekly sales report for APAC with page size 200', { page_size: 300 })).toEqual([]);
    expect(read('Build the weekly sales report for APAC with page size 1,000, page_size=300')).toEqual(['page_size=300']);
    expect(read('Build the weekly sales report for APAC with page size 1,000')).toEqual(['page_size=1000']);
    expect(read('Build the weekly sales report for APAC with a 600 minute timeout')).toEqual(['timeout_s=36000']);
    // One word of a two-word name is not the name: "page 2" is no page size.
    expect(read('Build the weekly sales report for APAC, starting from page 2')).toEqual([]);
  });

  it('is nothing when the caller gave the input, the task names the default or nothing, or the value is another input\'s', () => {
    expect(overriddenDefaults(report, 'send the weekly report to eng-all@example.com', { report: 'weekly', to: 'team@example.com' })).toEqual([]);
    expect(overriddenDefaults(report, 'send the weekly report to team@example.com', { report: 'weekly' })).toEqual([]);
    expect(overriddenDefaults(report, 'send the weekly report', { report: 'weekly' })).toEqual([]);
    const fromTo = schema({ from: { type: 'string', examples: ['ops@example.com'] }, to: { type: 'string', examples: ['team@example.com'], default: 'team@example.com' } }, ['from']);
    expect(overriddenDefaults(fromTo, 'send the report from eng-all@example.com', { from: 'eng-all@example.com' })).toEqual([]);
  });

  it('is not a value a required input takes, one given inside an array, or the default written otherwise', () => {
    const invoice = schema({ to: { type: 'string', examples: ['bob@example.com'] }, cc: { type: 'string', examples: ['billing@example.com'], default: 'billing@example.com' } }, ['to']);
    const phrasings = ['Email the invoice to bob@example.com with a copy to billing@example.com'];
    expect(overriddenDefaults(invoice, 'email the invoice to carol@example.com', {}, phrasings)).toEqual([]);
    expect(overriddenDefaults(report, 'send the weekly report, cc boss@example.com', { report: 'weekly', cc: ['Boss@example.com'] })).toEqual([]);
    expect(overriddenDefaults(report, 'send the weekly report to Team@Example.com', { report: 'weekly' })).toEqual([]);
  });

  it('reads a word of the shape only after a word the example followed, and a plain example or enum value where the task says one', () => {
    const digest = schema({ to: { type: 'string', examples: ['team@example.com'], default: 'team@example.com' } }, []);
    const phrasings = ['Send the weekly digest to team@example.com'];
    expect(overriddenDefaults(digest, 'send the weekly digest from noreply@corp.com', {}, phrasings)).toEqual([]);
    expect(overriddenDefaults(digest, 'send the weekly digest to eng@corp.com', {}, phrasings)).toEqual([{ name: 'to', named: 'eng@corp.com', default: 'team@example.com' }]);
    const env = schema({ env: { type: 'string', enum: ['staging', 'production'], examples: ['staging'], default: 'staging' } }, []);
    expect(overriddenDefaults(env, 'deploy the checkout service to production', {}, ['Deploy the checkout service to staging'])).toEqual([
      { name: 'env', named: 'production', default: 'staging' },
    ]);
    expect(overriddenDefaults(env, 'deploy the checkout service to staging', {}, ['Deploy the checkout service to staging'])).toEqual([]);
    // After a word as common as "the", a shape without a digit is no value: "the on-call" is not a policy.
    const policy = schema({ policy: { type: 'string', examples: ['platform-primary'], default: 'platform-primary' } }, []);
    const paging = ['Page the platform-primary escalation policy'];
    expect(overriddenDefaults(policy, 'wake up the on-call for auth-service', {}, paging)).toEqual([]);
    expect(overriddenDefaults(policy, 'page the payments-secondary escalation policy', {}, paging)).toEqual([
      { name: 'policy', named: 'payments-secondary', default: 'platform-primary' },
    ]);
  });

  it('names an input the caller gave one value while the task names another', () => {
    const triage = schema({ ticket: { type: 'string', examples: ['T-4411'] }, channel: { type: 'string', examples: ['#support-escalations'] } }, ['ticket', 'channel']);
    const stored = ['Triage ticket T-4411 and post a summary to #support-escalations'];
    const given = { ticket: 'T-7004', channel: '#support-escalations' };
    expect(contradictedInputs(triage, 'Triage ticket T-7004 and post a summary to #billing-escalations', given, stored)).toEqual([
      { name: 'channel', named: '#billing-escalations', given: '#support-escalations' },
    ]);
    // The task agreeing, naming nothing for it, or naming what another input was given, is no contradiction.
    expect(contradictedInputs(triage, 'Triage ticket T-7004 and post a summary to #support-escalations', given, stored)).toEqual([]);
    expect(contradictedInputs(triage, 'Triage ticket T-7004', given, stored)).toEqual([]);
    expect(contradictedInputs(triage, 'Triage ticket T-7004', {}, stored)).toEqual([]);
    // An input left to its default is no given value the task contradicts (overriddenDefaults names it).
    const tests = schema({ repo: { type: 'string', examples: ['acme/api'] }, branch: { type: 'string', examples: ['main'] }, reporter: { type: 'string', examples: ['dot', 'spec'], default: 'dot' } }, ['repo', 'branch', 'reporter']);
    expect(contradictedInputs(tests, 'Run the tests of acme/api on branch main using the spec reporter', { repo: 'acme/api', branch: 'main' }, ['Run the tests of acme/api on branch main'])).toEqual([]);
    // An address mentioned in passing is not the one the task sends to.
    const report = schema({ to: { type: 'string', examples: ['finance@example.com'] } }, ['to']);
    const mailed = ['email the sales report to finance@example.com'];
    expect(contradictedInputs(report, 'email the sales report, requested by bob@example.com', { to: 'finance@example.com' }, mailed)).toEqual([]);
    expect(contradictedInputs(report, 'email the sales report to cfo@example.com', { to: 'finance@example.com' }, mailed)).toEqual([
      { name: 'to', named: 'cfo@example.com', given: 'finance@example.com' },
    ]);
    // Words read around the given value ("EMEA for Q3" between the neighbours of "EMEA") still name it.
    const sales = schema({ region: { type: 'string', examples: ['EMEA', 'APAC'] } }, ['region']);
    const salesPhrasing = ['Build the sales report for region EMEA and email it'];
    expect(contradictedInputs(sales, 'Build the sales report for region EMEA for Q3 and email it', { region: 'EMEA' }, salesPhrasing)).toEqual([]);
    expect(contradictedInputs(sales, 'Build the sales report for region LATAM and email it', { region: 'EMEA' }, salesPhrasing)).toEqual([
      { name: 'region', named: 'LATAM', given: 'EMEA' },
    ]);
  });

  it('never reads a value across the end of a sentence', () => {
    const category = schema({ category: { type: 'string', examples: ['engineering'], default: 'engineering' } }, []);
    const stored = ['publish the post under the engineering category'];
    expect(overriddenDefaults(category, "publish 'What we learned from the May outage'. Update the category index", {}, stored)).toEqual([]);
    expect(overriddenDefaults(category, 'publish it under the design category', {}, stored)).toEqual([{ name: 'category', named: 'design', default: 'engineering' }]);
  });
});
