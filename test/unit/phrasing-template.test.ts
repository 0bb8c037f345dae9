import { describe, expect, it } from 'vitest';
import { wordsOf } from '../../src/domain/input-suggestions';
import { RESEARCH_INPUTS_SCHEMA, RESEARCH_PHRASINGS } from '../fixtures/research-plan';
import { phrasingTemplates, templateMatch as matchTemplates, type PhrasedPlan } from '../../src/domain/phrasing-template';

/** The plan's templates matched against one task. */
function templateMatch(task: string, plan: PhrasedPlan): number | undefined {
  const templates = phrasingTemplates(plan);
  return templates && matchTemplates(wordsOf(task), templates);
}

const research = { examples: RESEARCH_PHRASINGS, inputs_schema: RESEARCH_INPUTS_SCHEMA };
const tickets = {
  description: 'refund ticket T-100',
  inputs_schema: { type: 'object', required: ['ticket_id'], properties: { ticket_id: { type: 'string', examples: ['T-100', 'T-103'] } } },
};

describe('a task filling a learned phrasing with its own values', () => {
  it('matches fully when the words around the values are the phrasing’s', () => {
    expect(templateMatch('look up how the linux scheduler paces itself, summarise in 30 words, file it as "CFS"', research)).toBe(1);
    expect(templateMatch('I need a note "Kafka basics" summarising what kafka rebalancing does', research)).toBe(1);
    expect(templateMatch('refund ticket T-2041', tickets)).toBe(1);
  });

  it('matches a number however the task writes it: 34.90 as 34.9', () => {
    const price = {
      description: 'Set the price of SKU POLO-WHT-L to 34.99',
      inputs_schema: { type: 'object', required: ['sku', 'price'], properties: { sku: { type: 'string', examples: ['POLO-WHT-L'] }, price: { type: 'number', examples: [34.99, 12.5] } } },
    };
    expect(templateMatch('Set the price of SKU MUG-CER-350 to 34.90', price)).toBe(1);
    expect(templateMatch('Set the price of SKU MUG-CER-350 to 12.50', price)).toBe(1);
  });

  it('matches a template filled with a word or so more, and not one missing a word of its own', () => {
    const phone = { ...tickets, description: 'please refund ticket T-100 for the customer on the phone' };
    expect(templateMatch('please refund ticket T-2041 for the customer on the phone', phone)).toBe(1);
    expect(templateMatch('please refund ticket T-2041 for the customer on the phone today', phone)).toBeGreaterThan(0.8);
    // The template's words are not all there.
    expect(templateMatch('refund ticket T-2041 today', phone)).toBeUndefined();
    // Another job of the same kind: the template's "310" is not in the task.
    const deploy = { description: 'deploy service 310 for https://git.example/acme/api on branch main', inputs_schema: { type: 'object', required: ['url'], properties: { url: { type: 'string', examples: ['https://git.example/acme/api'] } } } };
    expect(templateMatch('deploy service 9001 for https://git.example/globex/web on branch main', deploy)).toBeUndefined();
    expect(templateMatch('close ticket T-102 without a refund', tickets)).toBeUndefined();
    expect(templateMatch('find out what postgres vacuum does, summarise in 10 words, save as note "Vacuum 2"', research)).toBeUndefined();
  });

  it('has no say when the task names no input, or the plan has no values in its phrasings', () => {
    expect(templateMatch('save a note about go gc', research)).toBeUndefined();
    expect(templateMatch('refund ticket T-2041', { ...tickets, inputs_schema: { type: 'object', properties: { ticket_id: { type: 'string' } } } })).toBeUndefined();
    expect(templateMatch('refund ticket T-2041', { description: 'refund a ticket', inputs_schema: tickets.inputs_schema })).toBeUndefined();
  });
});
