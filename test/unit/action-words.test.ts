import { describe, expect, it } from 'vitest';
import { actionConflict, describeConflict, furtherActionConflict, leadingAction, planActionNames } from '../../src/domain/action-words';

describe('the action a task asks for', () => {
  it('is its leading verb, past lead-ins, phrasal verbs and endings', () => {
    expect(leadingAction('restart the billing workers')).toEqual({ word: 'restart', action: 'restart' });
    expect(leadingAction('Please can you go ahead and bounce the workers')).toEqual({ word: 'bounce', action: 'restart' });
    expect(leadingAction('we need to shut down the old cluster')).toEqual({ word: 'shut down', action: 'stop' });
    expect(leadingAction('roll back the last deploy')).toEqual({ word: 'roll back', action: 'rollback' });
    expect(leadingAction('go back to the previous deployment')).toEqual({ word: 'go back', action: 'rollback' });
    expect(leadingAction('stopping the workers')?.action).toBe('stop');
    expect(leadingAction('purged cache')?.action).toBe('remove');
    expect(leadingAction('clean_up_old_docker_images')).toEqual({ word: 'clean up', action: 'remove' });
  });

  it('is unknown when the task does not lead with a classed verb', () => {
    expect(leadingAction('someone dropped the invoices table, bring it back')).toBeUndefined();
    expect(leadingAction('load last night\'s backup into the db')).toBeUndefined();
    expect(leadingAction('the release broke checkout')).toBeUndefined();
    expect(leadingAction('roll the dice')).toBeUndefined();
    expect(leadingAction('')).toBeUndefined();
  });
});

describe('an action conflict', () => {
  it('holds a task back from a plan that leads with another class of verb', () => {
    expect(actionConflict('pause the billing workers', ['restart_stuck_workers'])).toEqual({ task: 'pause', plan: ['restart'] });
    expect(actionConflict('warm the cdn cache', ['purge_cdn_cache', 'flush the cloudfront cache'])).toEqual({ task: 'warm', plan: ['purge', 'flush'] });
    expect(actionConflict('list the api keys', ['rotate_api_keys'])).toEqual({ task: 'list', plan: ['rotate'] });
  });

  it('never holds back a verb of the plan\'s class, one a learned alias leads with, an unclassed task, or a plan with no name', () => {
    expect(actionConflict('reboot the billing workers', ['restart_stuck_workers'])).toBeUndefined();
    expect(actionConflict('stop the billing workers', ['recycle_billing_consumers', 'stop the billing workers'])).toBeUndefined();
    expect(actionConflict('handle the stuck workers', ['restart_stuck_workers'])).toBeUndefined();
    expect(actionConflict('restart the billing workers', ['triage_latency_alert'])).toBeUndefined();
    expect(actionConflict('stop the billing workers', [])).toBeUndefined();
  });

  it('holds back an action that cannot be taken back from a plan named by verbs of no class', () => {
    const summarise = ['Summarise pull request 4821 in acme/webshop for the weekly changelog'];
    for (const task of ['merge pull request 5012 in acme/webshop', 'revert pull request 4821', 'delete the weekly changelog', 'cancel the changelog email']) {
      expect(actionConflict(task, summarise)).toMatchObject({ plan: [] });
    }
    expect(actionConflict('summarise pull request 5012', summarise)).toBeUndefined();
    expect(actionConflict('send the weekly changelog', summarise)).toBeUndefined();
    expect(actionConflict('remove duplicate customer records', ['deduplicate_customer_records'])).toBeUndefined();
    expect(actionConflict('offboard customer Hooli', planActionNames({ intent: 'customer_onboarding', nodes: [] }, []))).toEqual({ task: 'offboard', plan: ['onboard'] });
    expect(describeConflict({ task: 'merge', plan: [] })).toBe('the task asks to "merge", which cannot be taken back, and the best match is not known to do it');
  });
});

describe('what a plan is known to do', () => {
  const nodes = [{ id: 'a', op: 'fetch_page' }, { id: 'b', op: 'summarize_text' }, { id: 'c', op: 'fetch_page' }];
  it('is its intent, examples and learned aliases', () => {
    expect(planActionNames({ intent: 'restart_workers', examples: ['bounce the workers'], nodes }, ['recycle the workers'])).toEqual(['restart_workers', 'bounce the workers', 'recycle the workers']);
  });

  it('reads the verb a plan name ends with when it leads with none: names put the object first', () => {
    expect(planActionNames({ intent: 'billing_worker_restart', nodes }, [])).toEqual(['billing_worker_restart', 'restart']);
    expect(planActionNames({ intent: 'W billing workers shut down', nodes }, [])).toEqual(['W billing workers shut down', 'shut down']);
    expect(actionConflict('stop the billing workers', planActionNames({ intent: 'billing worker restart', nodes }, []))).toEqual({ task: 'stop', plan: ['restart'] });
    expect(actionConflict('bounce the billing workers', planActionNames({ intent: 'billing worker restart', nodes }, []))).toBeUndefined();
    // A name leading with a verb keeps it alone; a name ending in no classed verb adds none.
    expect(planActionNames({ intent: 'deploy status check', nodes }, [])).toEqual(['deploy status check']);
    expect(planActionNames({ intent: 'user password reset', nodes }, [])).toEqual(['user password reset']);
    // An action noun is its verb; a name with two classed words says no single action.
    expect(actionConflict('export the customer data for initech', planActionNames({ intent: 'customer_data_deletion', nodes }, []))).toEqual({ task: 'export', plan: ['delete'] });
    expect(planActionNames({ intent: 'order_refund_email', nodes }, [])).toEqual(['order_refund_email']);
    // A name in the past tense reports a step, as an event kind does: a scale plan named `pods_listed` does not list.
    expect(planActionNames({ intent: 'pods_listed', nodes }, [])).toEqual(['pods_listed']);
    expect(actionConflict('list the pods of checkout-api', planActionNames({ intent: 'pods_listed', examples: ['scale checkout-api to 6 replicas'], nodes }, []))).toEqual({ task: 'list', plan: ['scale'] });
  });

  it('reads the verb a later clause of the plan’s tasks leads with when none leads with one', () => {
    const lock = ['left_book_train', 'I left my MacBook on the train, serial C02XK1ZJMD6T, lock it please', 'lost my laptop at the airport. please lock it'];
    expect(actionConflict('unlock my laptop C02XK1ZJMD6T, I found it', lock)).toEqual({ task: 'unlock', plan: ['lock'] });
    expect(actionConflict('Wipe laptop C02JJ55LMD6T remotely', lock)).toEqual({ task: 'wipe', plan: ['lock'] });
    expect(actionConflict('lock device C02LL77NMD6T', lock)).toBeUndefined();
    // A noun phrase is no clause's verb: "pull request" does not read.
    expect(actionConflict('send the weekly changelog', ['Summarise pull request 4821 for the weekly changelog'])).toBeUndefined();
    // One task alone may name a step of the job, not the job: two must say the verb.
    expect(actionConflict('send the ticket to engineering', ['escalate_ticket_to_engineering', 'this bug report needs a developer, open a jira and link it'])).toBeUndefined();
  });

  it('reads the verb after an article the task leads with, and "ack" as acknowledging', () => {
    expect(leadingAction('do a restart of payments in prod-eu')?.action).toBe('restart');
    expect(actionConflict('ack incident J3HH7KK and then scale checkout-api to 8', ['scale_replicas', 'scale checkout-api in prod-eu to 6 replicas'])).toEqual({ task: 'ack', plan: ['scale'] });
  });

  it('leaves out an intent that only joins its op names: that says how, not what', () => {
    expect(planActionNames({ intent: 'fetch_page_summarize_text', examples: ['restart the billing workers'], nodes }, [])).toEqual(['restart the billing workers']);
    expect(actionConflict('check the billing workers', planActionNames({ intent: 'fetch_page_summarize_text', examples: ['restart the billing workers'], nodes }, []))).toEqual({ task: 'check', plan: ['restart'] });
  });
});

describe('a phrase with two actions', () => {
  it('says no single one: "find and merge" does more than find', () => {
    expect(leadingAction('find and merge duplicated customers')).toBeUndefined();
    expect(leadingAction('check then restart the workers')).toBeUndefined();
    expect(actionConflict('remove duplicate customer records', ['deduplicate_customer_records', 'find and merge duplicated customers'])).toBeUndefined();
  });
});

describe('a forbidden action', () => {
  it('is held back from every plan that says what it does, whatever its verb', () => {
    expect(leadingAction("don't restart the billing workers")).toEqual({ word: 'not restart', action: 'negated', negated: true });
    expect(actionConflict('do not restart the billing workers', ['restart_stuck_workers'])).toEqual({ task: 'not restart', plan: ['restart'] });
    expect(actionConflict('please never drain the billing workers', ['restart_stuck_workers'])).toEqual({ task: 'not drain', plan: ['restart'] });
  });

  it('classes "take down", "drain", "silence" and "tell me" by what they do', () => {
    expect(actionConflict('take down the billing workers', ['restart_stuck_workers'])?.task).toBe('take down');
    expect(actionConflict('drain the billing workers', ['restart_stuck_workers'])?.task).toBe('drain');
    expect(actionConflict('silence the quokka roster', ['notify_quokka_roster'])?.task).toBe('silence');
    expect(actionConflict('tell me the health status of payments', ['show_health_status'])).toBeUndefined();
    expect(actionConflict('resume the nightly cron job', ['enable_nightly_cron_job'])).toBeUndefined();
  });
});

describe('a further action the task asks for', () => {
  const revenue = ['revenue_by_region', 'Revenue for EMEA in week 2026-W44', 'sql_query', 'python', 'write_file'];

  it('holds a request joined by "and" or "then" that no word of the plan is of the class of', () => {
    expect(furtherActionConflict('What was revenue in EMEA for week 2026-W45? Then email it to cfo@acme.example', revenue)).toEqual({ task: 'email', plan: [], also: true });
    expect(furtherActionConflict('Export sign-ups since 2026-11-01 to CSV and upload it to s3://exports/', ['export_sign_ups', 'sql_query'])).toMatchObject({ task: 'upload' });
    expect(furtherActionConflict('Move the Globex deal to Closed Won, then create an invoice', ['deal_found', 'crm_update_deal', 'slack_post'])).toMatchObject({ task: 'create' });
  });

  it('lets through what the plan’s names, description or ops say it does, reading, and parts of its action', () => {
    expect(furtherActionConflict('Revenue for APAC in week 2026-W45 and email it to dana@acme.example', [...revenue, 'send_email'])).toBeUndefined();
    expect(furtherActionConflict('Summarize PR 12 and post it to #eng', ['summarize_pr', 'Summarize PR 7 and post it to #eng'])).toBeUndefined();
    expect(furtherActionConflict('Restart the billing workers, then check they are healthy', ['restart_billing_workers'])).toBeUndefined();
    expect(furtherActionConflict('issue a new stripe key and kill the old one', ['rotate_api_keys'])).toBeUndefined();
    // A clause that is no further request: a comma alone, or a word after "and" that is no classed verb.
    expect(furtherActionConflict('the warehouse is missing numbers, start the batch load', ['run_nightly_etl'])).toBeUndefined();
    expect(furtherActionConflict('Refund order A-1042 and its shipping', ['refund_order'])).toBeUndefined();
  });

  it('holds an action the task forbids past its first words that the plan does; a statement forbids nothing', () => {
    const flights = ['book_cheapest', 'Book the cheapest flight from SFO to JFK on Dec 12', 'flights_search', 'flights_book'];
    expect(furtherActionConflict("find the cheapest flight from JFK to LAX on Dec 14 but don't book it", flights)).toEqual({ task: 'not book', plan: [] });
    expect(furtherActionConflict('look up the cheapest flights from SFO to JFK, no booking', flights)).toMatchObject({ task: 'not book' });
    expect(furtherActionConflict('move the QBR to Tuesday 2pm without emailing the attendees', ['move', 'calendar_move', 'gmail_send'])).toMatchObject({ task: 'not email' });
    // The plan does not do it, nothing is forbidden, or "not" states how things are.
    expect(furtherActionConflict('move the QBR to Tuesday 2pm without emailing the attendees', ['move', 'calendar_move'])).toBeUndefined();
    expect(furtherActionConflict('restart payments, no need to page anyone', ['restart_payments', 'pager_send'])).toBeUndefined();
    expect(furtherActionConflict('end the membership for acme corp, they are not renewing', ['cancel_subscription', 'Cancel it so that it does not renew'])).toBeUndefined();
    // What a generic call does is in its params: a POST to …/notifications notifies, a DM sends.
    const refund = ['refund_line_item', 'call_3 http_request {"method":"POST","url":"https://api.shop.example/v2/notifications"}'];
    expect(furtherActionConflict("refund line JEANS-32 on order 100622 but don't notify the customer", refund)).toMatchObject({ task: 'not notify' });
    expect(furtherActionConflict("can u unlock ahmed@northwind.io but don't DM him", ['unlock_account', 'okta_unlock', 'slack_dm'])).toMatchObject({ task: 'not dm' });
  });

  it('says what else the task asks', () => {
    expect(describeConflict({ task: 'email', plan: [], also: true })).toBe('the task also asks to "email", which nothing says the best match does');
  });
});

describe('a conflict in words', () => {
  it('says what the task asks and what the plan does', () => {
    expect(describeConflict({ task: 'stop', plan: ['restart'] })).toBe('the task asks to "stop", but the best match does "restart"');
    expect(describeConflict({ task: 'not restart', plan: ['restart'] })).toBe('the task says "not restart", and the best match does "restart"');
    expect(describeConflict({ task: 'not drain', plan: [] })).toBe('the task says "not drain"');
  });
});

describe('a phrasal verb split around its object', () => {
  it('is read with its particle', () => {
    expect(leadingAction('shut the billing workers down')).toEqual({ word: 'shut down', action: 'stop' });
    expect(leadingAction('roll the checkout release back')).toEqual({ word: 'roll back', action: 'rollback' });
    expect(actionConflict('take the billing workers down', ['restart_stuck_workers'])?.task).toBe('take down');
    // A classed verb keeps its own sense; an unclassed one without a particle stays unknown.
    expect(leadingAction('check the workers back on')).toEqual({ word: 'check', action: 'read' });
    expect(leadingAction('shut the ticket')).toBeUndefined();
  });
});
