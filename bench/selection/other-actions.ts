/**
 * Tasks that ask for another action on the object of a labelled plan ("pause the sidekiq
 * workers" beside restart_stuck_workers), which no plan of the set does: whatever the selector
 * ranks first is the wrong plan, so every auto-run is a wrong one. Written after the verb classes
 * of src/domain/action-words.ts were chosen, in the verbs an operator would use.
 */
import { actionConflict, planActionNames } from '../../src/domain/action-words';
import type { Figure } from '../lib/scenario';
import { LABELLED_PLANS, labelledPayload } from './labelled-set';

/** A task, and the intent of the labelled plan whose object it names. */
export const OTHER_ACTION_TASKS: ReadonlyArray<{ text: string; near: string }> = [
  { text: 'pause the stuck sidekiq workers', near: 'restart_stuck_workers' },
  { text: 'stop the background job workers', near: 'restart_stuck_workers' },
  { text: 'kill the stuck queue workers', near: 'restart_stuck_workers' },
  { text: 'list the stuck sidekiq workers', near: 'restart_stuck_workers' },
  { text: 'warm the cdn cache for the storefront', near: 'purge_cdn_cache' },
  { text: 'inspect the cdn cache hit ratio for /pricing', near: 'purge_cdn_cache' },
  { text: 'preload the cloudfront cache with the new assets', near: 'purge_cdn_cache' },
  { text: 'revoke the stripe api keys', near: 'rotate_api_keys' },
  { text: 'list the api keys we issued to partners', near: 'rotate_api_keys' },
  { text: 'check when the tls certificates expire', near: 'rotate_tls_certificates' },
  { text: 'revoke the tls certificate for api.example.com', near: 'rotate_tls_certificates' },
  { text: 'undeploy the checkout service', near: 'deploy_service' },
  { text: 'stop the checkout service in production', near: 'deploy_service' },
  { text: 'count the replicas of the checkout service', near: 'scale_service_replicas' },
  { text: 'list the postgres backups in the bucket', near: 'backup_postgres_database' },
  { text: 'delete old postgres backups from the backup bucket', near: 'backup_postgres_database' },
  { text: 'delete the orders table', near: 'export_table_to_csv' },
  { text: 'truncate the events table before the reload', near: 'export_table_to_csv' },
  { text: 'tear down the preview environment for PR 482', near: 'provision_preview_environment' },
  { text: 'list the preview environments that are still running', near: 'provision_preview_environment' },
  { text: 'cancel the customer order 88123', near: 'refund_customer_order' },
  { text: 'look up the status of order 88123', near: 'refund_customer_order' },
  { text: 'pause the subscription of acme for a month', near: 'cancel_subscription' },
  { text: 'resume the paused subscription for acme', near: 'cancel_subscription' },
  { text: 'upgrade the customer subscription to the pro plan', near: 'cancel_subscription' },
  { text: 'lock the user account of bob@example.com', near: 'delete_user_account' },
  { text: 'suspend the user account that sent spam', near: 'delete_user_account' },
  { text: 'list the stale tickets older than 30 days', near: 'close_stale_tickets' },
  { text: 'delete the outage status update we posted', near: 'send_outage_status_update' },
  { text: 'list the old docker images in ecr', near: 'clean_up_old_docker_images' },
  { text: 'push the new docker image to ecr', near: 'clean_up_old_docker_images' },
  { text: 'delete the last postgres dump from the bucket', near: 'restore_postgres_database' },
];

/**
 * Tasks meaning a labelled plan in verbs of their own, written (like OTHER_ACTION_TASKS) after
 * the verb classes were chosen and not tuned on since: the action gate must not hold them back.
 */
export const SAME_ACTION_TASKS: Readonly<Record<string, readonly string[]>> = {
  restart_stuck_workers: ['reboot the stuck sidekiq workers', 'give the job workers a kick', 'cycle the queue workers that hang', 'respawn the hung workers'],
  purge_cdn_cache: ['invalidate the cloudfront cache for /pricing', 'bust the cdn cache', 'clear cached assets on the edge', 'evict the stale pages from the cdn'],
  rotate_api_keys: ['regenerate the stripe secret keys', 'roll the api keys', 'issue new api keys and retire the old ones', 'renew the partner api keys'],
  rotate_tls_certificates: ['renew the tls certs before they expire', 'reissue the https certificate for api.example.com', 'replace the expiring certificates'],
  deploy_service: ['ship the checkout service to prod', 'release the new build of the search api', 'roll out checkout v2.3', 'promote the staging build to production', 'put the new version of billing live'],
  scale_service_replicas: ['bump the checkout replicas to 6', 'add more pods to the search service', 'increase the replica count of billing', 'resize the api deployment to 10 instances'],
  backup_postgres_database: ['dump the orders database to s3', 'snapshot the postgres db', 'make a backup of the billing db'],
  restore_postgres_database: ['bring back the orders db from last night', 'recover the dropped table from the dump', "roll the database back to yesterday's backup"],
  provision_preview_environment: ['spin up a preview env for PR 42', 'create a review app for this branch', 'stand up a test environment for the feature branch'],
  clean_up_old_docker_images: ['prune old images from ecr', 'delete docker images older than 90 days', 'get rid of stale container images'],
  export_table_to_csv: ['download the orders table as csv', 'dump the customers table to a spreadsheet', "give finance a csv of last month's invoices"],
  import_csv_into_table: ['load this csv into the products table', 'upload the spreadsheet into postgres', 'ingest the partner file into the leads table'],
  cancel_subscription: ["end acme's subscription", 'terminate the pro plan for this customer', 'stop billing this customer every month', 'unsubscribe the customer from the pro plan'],
  delete_user_account: ["remove bob's account", "close this customer's account for good", 'wipe the user account and its data'],
  close_stale_tickets: ['resolve tickets with no reply for 30 days', 'shut the old tickets', 'archive stale support tickets'],
  refund_customer_order: ['give the customer their money back for order 88123', 'reimburse order 88123', 'refund the double charge'],
  send_outage_status_update: ['post an update on the status page', 'notify customers about the outage', 'tell users the api is degraded', 'publish an incident update'],
  erase_customer_personal_data: ['delete all personal data for this user under gdpr', 'forget the customer per their erasure request', "purge this customer's pii"],
  export_customer_data: ['send the customer a copy of their data', 'give the user an export of everything we hold', 'prepare a gdpr data export'],
  rollback_deployment: ['revert the last deploy', 'undo the release of checkout', 'roll back payments to the previous version', 'downgrade the api to v1.4'],
};

/** The labelled plan index a task's object belongs to. */
export function nearPlan(intent: string): number {
  const index = LABELLED_PLANS.findIndex((plan) => plan.intent === intent);
  if (index < 0) throw new Error(`no labelled plan ${intent}`);
  return index;
}

/** How many of SAME_ACTION_TASKS the action gate would hold back from the plan they mean. */
export function sameActionFigures(): Figure[] {
  const tasks = Object.entries(SAME_ACTION_TASKS).flatMap(([intent, texts]) => texts.map((text) => ({ text, intent })));
  const names = (intent: string) => planActionNames(labelledPayload(LABELLED_PLANS[nearPlan(intent)]!, nearPlan(intent)), []);
  const held = tasks.filter((task) => actionConflict(task.text, names(task.intent)) !== undefined);
  return [
    { label: 'held-out phrasings of a plan’s own action in other verbs', value: tasks.length },
    { label: 'held-out phrasings of a plan’s own action the action gate holds back from it', value: held.length },
  ];
}
