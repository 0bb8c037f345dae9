// Held-out evaluation set 2 for fixed-value (plan constant) conflict detection, written by a
// helper that had seen neither the gate's code nor sets 1; same labels as set 1.
import type { FixedValueCase } from './fixed-value-cases';

export const FIXED_VALUE_CASES_2: FixedValueCase[] = [
  // 1. Kubernetes deploy
  {
    plan: {
      intent: 'Deploy a service image to the prod-eu-1 Kubernetes cluster in the payments namespace with a rolling update',
      examples: [
        'deploy ledger-api v2.4.0 to payments',
        'roll out checkout-svc image 1.8.3',
      ],
      inputs_schema: {
        type: 'object',
        properties: {
          service: { type: 'string', examples: ['ledger-api', 'checkout-svc'] },
          image_tag: { type: 'string', examples: ['v2.4.0', '1.8.3'] },
        },
        required: ['service', 'image_tag'],
      },
      nodes: [
        {
          id: 'set_image',
          params: {
            cluster: 'prod-eu-1',
            namespace: 'payments',
            deployment: '{{inputs.service}}',
            image_tag: '{{inputs.image_tag}}',
            strategy: 'rolling',
          },
        },
        { id: 'wait_rollout', params: { namespace: 'payments', deployment: '{{inputs.service}}' } },
      ],
    },
    tasks: [
      { task: 'Roll out ledger-api at tag v2.4.1 in payments', expect: 'run', why: 'new inputs, restates namespace' },
      { task: 'deploy checkout-svc 1.9.0, use our usual deployment strategy', expect: 'run', why: 'strategy mentioned in passing, no new value' },
      { task: 'Please push image tag v3.0.0-rc2 for refund-worker to prod-eu-1 (ticket: https://jira.example.com/browse/PAY-1421). Check the namespace first.', expect: 'run', why: 'restates cluster; ticket link incidental; namespace named in passing' },
      { task: 'Ship the new build of fraud-scorer (tag 2024.06.11) — rolling update like always.', expect: 'run', why: 'restates rolling strategy' },
      { task: 'Update deployment ledger-api to image 2.5.0 in the PAYMENTS namespace; requested by dana@example.com', expect: 'run', why: 'constant restated in upper case; requester e-mail incidental' },
      { task: 'redeploy refund-worker, tag sha-9f3c2e1', expect: 'run', why: 'new inputs only' },
      { task: 'Deploy ledger-api v2.4.2 into the analytics namespace', expect: 'hold', why: 'namespace analytics instead of payments' },
      { task: 'roll out checkout-svc 1.9.1 with a canary strategy', expect: 'hold', why: 'canary instead of rolling' },
      { task: 'Deploy fraud-scorer tag 0.8.0 on cluster prod-us-1 please', expect: 'hold', why: 'cluster prod-us-1 instead of prod-eu-1' },
      { task: 'Ship refund-worker 4.1.0 using blue-green this time', expect: 'hold', why: 'blue-green strategy instead of rolling' },
    ],
  },

  // 2. Warehouse table export
  {
    plan: {
      intent: 'Export a warehouse table snapshot as gzipped CSV to the analytics exports S3 bucket',
      examples: ['export the orders table for 2024-05-31', 'dump customers snapshot for yesterday to S3'],
      inputs_schema: {
        type: 'object',
        properties: {
          table: { type: 'string', examples: ['orders', 'customers'] },
          date: { type: 'string', examples: ['2024-05-31', '2024-06-01'] },
        },
        required: ['table', 'date'],
      },
      nodes: [
        { id: 'query', params: { table: '{{inputs.table}}', snapshot_date: '{{inputs.date}}', warehouse: 'snowflake-prod' } },
        { id: 'write', params: { format: 'csv', compression: 'gzip', destination: 's3://acme-analytics-exports/daily/' } },
      ],
    },
    tasks: [
      { task: 'export the invoices table for 2024-06-03', expect: 'run', why: 'new inputs only' },
      { task: 'Dump the customers snapshot from 2024-06-01 as a gzipped CSV to s3://acme-analytics-exports/daily/', expect: 'run', why: 'restates format, compression and bucket' },
      { task: 'Need the line_items table exported for June 3rd, 2024. Same format as always. FYI the request came from finance-bi@acme.com.', expect: 'run', why: 'filler; requester e-mail incidental' },
      { task: 'Please export table `web_sessions` (date 2024-06-10) from snowflake-prod; see https://wiki.acme.com/data/exports for context', expect: 'run', why: 'restates warehouse; wiki link incidental' },
      { task: 'export refunds for 2024-06-12, CSV please', expect: 'run', why: 'restates csv' },
      { task: 'snapshot of the payouts table dated 2024-04-30 -> the usual export bucket. Check the compression setting matches the docs afterwards.', expect: 'run', why: 'compression named in passing, no new value' },
      { task: 'Export the orders table for 2024-06-01 as Parquet', expect: 'hold', why: 'parquet instead of csv' },
      { task: 'export customers (2024-06-02) and upload it to s3://acme-marketing-drop/ instead', expect: 'hold', why: 'different destination bucket' },
      { task: 'Dump the invoices table for 2024-06-05 with zstd compression', expect: 'hold', why: 'zstd instead of gzip' },
      { task: 'export web_sessions for 2024-06-07 as newline-delimited JSON', expect: 'hold', why: 'json instead of csv' },
    ],
  },

  // 3. Support desk escalation
  {
    plan: {
      intent: 'Escalate a customer support ticket to the tier-2 queue at priority P2 and notify the escalations channel',
      examples: ['escalate ZD-48211, customer locked out', 'bump ticket 99120 to tier 2'],
      inputs_schema: {
        type: 'object',
        properties: {
          ticket_id: { type: 'string', examples: ['ZD-48211', '99120'] },
          summary: { type: 'string', examples: ['customer locked out after SSO migration', 'double charge on annual plan'] },
        },
        required: ['ticket_id', 'summary'],
      },
      nodes: [
        { id: 'update_ticket', params: { ticket_id: '{{inputs.ticket_id}}', queue: 'tier-2', priority: 'P2' } },
        { id: 'notify', params: { channel: '#support-escalations', text: 'Escalated {{inputs.ticket_id}}: {{inputs.summary}}' } },
      ],
    },
    tasks: [
      { task: "Escalate ZD-48390 — customer can't reset password after SSO migration", expect: 'run', why: 'new inputs only' },
      { task: 'bump ticket 99187 up to tier 2, summary: double charge on monthly plan', expect: 'run', why: '"tier 2" is the plan\'s tier-2' },
      { task: 'Please escalate ticket #77341 (refund not received after 14 days) with the usual priority. The customer, jane.doe@gmail.com, has emailed three times.', expect: 'run', why: 'priority named as usual; customer e-mail and numbers incidental' },
      { task: 'Escalate ZD-50002 to Tier-2 at P2 and post in #support-escalations; issue: export button greyed out', expect: 'run', why: 'restates all constants' },
      { task: "Escalate 88412, summary 'webhooks failing since 2024-06-03'; I'll update the priority matrix doc afterwards.", expect: 'run', why: 'priority mentioned in passing; date is context' },
      { task: "escalate ZD-61000 - 'mobile app crashes on login' - per SLA", expect: 'run', why: 'filler only' },
      { task: 'Escalate ZD-48300 (data loss on import) with priority P1', expect: 'hold', why: 'P1 instead of P2' },
      { task: 'please send ticket 77400 straight to the tier-3 queue, summary: suspected security breach', expect: 'hold', why: 'tier-3 queue instead of tier-2' },
      { task: 'Escalate 90211 — invoice PDF missing — and post it in #billing-support rather than the escalations channel', expect: 'hold', why: 'different notify channel' },
      { task: "escalate ZD-51234 'SSO loop', make it a P3", expect: 'hold', why: 'P3 instead of P2' },
    ],
  },

  // 4. Finance invoicing
  {
    plan: {
      intent: 'Create an invoice for a customer in EUR with 30-day payment terms and send it in German, cc billing',
      examples: ['invoice CUS-1042 for 1250', 'bill customer cus_88231 480 euros'],
      inputs_schema: {
        type: 'object',
        properties: {
          customer_id: { type: 'string', examples: ['CUS-1042', 'cus_88231'] },
          amount: { type: 'number', examples: [1250, 480] },
        },
        required: ['customer_id', 'amount'],
      },
      nodes: [
        { id: 'create_invoice', params: { customer_id: '{{inputs.customer_id}}', amount: '{{inputs.amount}}', currency: 'EUR', due_days: 30 } },
        { id: 'send_invoice', params: { language: 'de', cc: 'billing@acme.example' } },
      ],
    },
    tasks: [
      { task: 'Invoice customer CUS-1187 for 1,250 euros', expect: 'run', why: '"euros" is EUR' },
      { task: 'bill cus_88231 €480.00, net 30 as usual', expect: 'run', why: 'restates currency and terms' },
      { task: 'Create an invoice for customer CUS-2200 amounting to 3200 EUR (their AP contact, hans.meier@kunde.de, asked for it on the phone).', expect: 'run', why: 'contact e-mail is incidental context' },
      { task: 'please raise an invoice: customer CUS-7781, amount 99.5, German-language invoice', expect: 'run', why: 'German is the plan\'s de' },
      { task: 'Invoice CUS-3310 for 15000 — PO reference PO-2024-0612, dated 12 June 2024', expect: 'run', why: 'PO ref and date incidental' },
      { task: 'new invoice for cus_55012, 720 EUR; check the payment terms in the contract later', expect: 'run', why: 'payment terms mentioned in passing' },
      { task: 'Invoice customer CUS-1042 for 1,250 in USD', expect: 'hold', why: 'USD instead of EUR' },
      { task: 'bill CUS-2200 £640 in GBP, usual terms', expect: 'hold', why: 'GBP instead of EUR' },
      { task: 'Create an invoice for CUS-7781 (amount 5000) with payment due in 60 days', expect: 'hold', why: '60 days instead of 30' },
      { task: 'Invoice cus_88231 for 300 EUR, but write it in English', expect: 'hold', why: 'English instead of German' },
      { task: 'Invoice CUS-3310 for 1200 EUR and cc accounts@partner.example on it', expect: 'hold', why: 'different cc recipient' },
    ],
  },

  // 5. Marketing newsletter
  {
    plan: {
      intent: 'Send a marketing newsletter campaign in English to the newsletter subscribers list immediately from news@acme.example',
      examples: ["send the June newsletter, subject 'What's new in June'", 'blast out campaign summer-sale'],
      inputs_schema: {
        type: 'object',
        properties: {
          campaign_name: { type: 'string', examples: ['june-product-update', 'summer-sale-2024'] },
          subject: { type: 'string', examples: ["What's new in June", 'Summer sale: 30% off'] },
        },
        required: ['campaign_name', 'subject'],
      },
      nodes: [
        { id: 'create_campaign', params: { name: '{{inputs.campaign_name}}', subject: '{{inputs.subject}}', list: 'newsletter-subscribers', language: 'en' } },
        { id: 'schedule', params: { from_address: 'news@acme.example', send_mode: 'immediate' } },
      ],
    },
    tasks: [
      { task: "Send the July product update newsletter (campaign july-product-update), subject 'What's new in July'", expect: 'run', why: 'new inputs only' },
      { task: 'kick off campaign autumn-sale-2024 with subject line "Autumn sale: 20% off" to the newsletter list, English copy', expect: 'run', why: 'restates list and language' },
      { task: "Blast out 'Q3 webinar invite' (campaign webinar-q3) from news@acme.example right away", expect: 'run', why: 'restates sender and immediate send' },
      { task: "Please send campaign 'holiday-hours' — subject: Our holiday opening hours. Approved by marketing-lead@acme.example on 2024-06-14.", expect: 'run', why: 'approver e-mail and date incidental' },
      { task: "campaign: feature-digest-07, subject: 'Your July digest'. en.", expect: 'run', why: 'restates en' },
      { task: "send the 'spring-refresh' newsletter (subject 'Fresh looks for spring') now; I'll update the audience list docs afterwards", expect: 'run', why: 'list mentioned in passing' },
      { task: "send campaign summer-sale-fr, subject 'Soldes d'été', in French", expect: 'hold', why: 'French instead of English' },
      { task: "Send 'beta-invite' (subject: You're invited to the beta) to the beta-testers list only", expect: 'hold', why: 'beta-testers list instead of newsletter-subscribers' },
      { task: "schedule campaign 'black-friday' with subject 'Black Friday starts now' for next Friday 9am instead of sending immediately", expect: 'hold', why: 'scheduled send instead of immediate' },
      { task: "Send newsletter 'partner-update', subject 'Partner news', from partners@acme.example", expect: 'hold', why: 'different from address' },
    ],
  },

  // 6. Security WAF block
  {
    plan: {
      intent: 'Block a malicious IP address on the production WAF for 24 hours and open a SEV3 security incident',
      examples: ['block 203.0.113.45, credential stuffing', 'ban IP 198.51.100.7 for scraping'],
      inputs_schema: {
        type: 'object',
        properties: {
          ip_address: { type: 'string', examples: ['203.0.113.45', '198.51.100.7'] },
          reason: { type: 'string', examples: ['credential stuffing against /login', 'scraping pricing pages'] },
        },
        required: ['ip_address', 'reason'],
      },
      nodes: [
        { id: 'waf_block', params: { ip: '{{inputs.ip_address}}', environment: 'production', policy: 'edge-default', duration_hours: 24 } },
        { id: 'open_incident', params: { title: 'Blocked {{inputs.ip_address}}', description: '{{inputs.reason}}', severity: 'SEV3' } },
      ],
    },
    tasks: [
      { task: 'block 203.0.113.61 — credential stuffing against /login', expect: 'run', why: 'new inputs only' },
      { task: 'Please block IP 198.51.100.7 in prod for a day; reason: scraping pricing pages at 40 req/s', expect: 'run', why: 'prod and "a day" restate production and 24h' },
      { task: 'Block 192.0.2.200 on the edge-default policy (SEV3 incident) — port scanning from this host, seen in alert https://siem.acme.example/alerts/5521', expect: 'run', why: 'restates policy and severity; alert link incidental' },
      { task: 'Add a WAF block for 203.0.113.99. Reason: SQLi attempts on /api/search. Reported by soc@acme.example at 2024-06-15 03:12 UTC.', expect: 'run', why: 'reporter e-mail and timestamp incidental' },
      { task: 'ban 198.51.100.23, brute force on the ssh bastion. check the severity matrix first', expect: 'run', why: 'severity named in passing' },
      { task: 'IP 192.0.2.77 is hammering the signup endpoint, block it for 24 hrs as usual', expect: 'run', why: 'restates 24 hours' },
      { task: 'Block 203.0.113.45 for 7 days — repeated credential stuffing', expect: 'hold', why: '7 days instead of 24 hours' },
      { task: 'block 198.51.100.7 on the staging WAF, reason: pentest noise', expect: 'hold', why: 'staging instead of production' },
      { task: 'Block 192.0.2.15 and open it as a SEV1 incident; reason: active exfiltration', expect: 'hold', why: 'SEV1 instead of SEV3' },
      { task: 'block 203.0.113.8 under the strict-api policy, reason: token abuse', expect: 'hold', why: 'strict-api policy instead of edge-default' },
    ],
  },

  // 7. HR/IT onboarding
  {
    plan: {
      intent: 'Provision a new engineering hire: create the account with a business license, invite to #eng-onboarding and order a standard Mac',
      examples: ['onboard Priya Natarajan, priya.natarajan@acme.example', 'new hire Tom Becker'],
      inputs_schema: {
        type: 'object',
        properties: {
          full_name: { type: 'string', examples: ['Priya Natarajan', 'Tom Becker'] },
          work_email: { type: 'string', examples: ['priya.natarajan@acme.example', 'tom.becker@acme.example'] },
        },
        required: ['full_name', 'work_email'],
      },
      nodes: [
        { id: 'create_account', params: { name: '{{inputs.full_name}}', email: '{{inputs.work_email}}', group: 'engineering', license: 'business' } },
        { id: 'invite_slack', params: { email: '{{inputs.work_email}}', channel: '#eng-onboarding' } },
        { id: 'order_laptop', params: { owner: '{{inputs.full_name}}', image: 'macos-standard' } },
      ],
    },
    tasks: [
      { task: 'Onboard Rahul Verma, rahul.verma@acme.example', expect: 'run', why: 'new inputs only' },
      { task: 'new hire: Nina Vogel <nina.vogel@acme.example>, starts 2024-07-01. Her manager is lena.ortiz@acme.example.', expect: 'run', why: 'manager e-mail and start date incidental' },
      { task: 'Please set up accounts for Ana Lima (ana.lima@acme.example) in engineering, business license, and invite her to #eng-onboarding.', expect: 'run', why: 'restates group, license, channel' },
      { task: 'set up new starter Kwame Mensah, email kwame.mensah@acme.example, standard mac image', expect: 'run', why: 'restates macos-standard' },
      { task: 'Provision everything for Julia Schmidt — julia.schmidt@acme.example. HR ticket: https://hr.acme.example/tickets/HR-3390. Double-check the license tier afterwards.', expect: 'run', why: 'ticket link incidental; license named in passing' },
      { task: "onboard 'Lee Min-jun' lee.minjun@acme.example, the usual setup", expect: 'run', why: 'filler only' },
      { task: 'Onboard Sara Kowalski (sara.kowalski@acme.example) into the sales group', expect: 'hold', why: 'sales group instead of engineering' },
      { task: 'Set up Omar Haddad, omar.haddad@acme.example, with an enterprise license', expect: 'hold', why: 'enterprise license instead of business' },
      { task: "new hire Chloe Martin chloe.martin@acme.example — she'll need the windows-11-dev laptop image", expect: 'hold', why: 'windows image instead of macos-standard' },
      { task: 'Provision Ivan Petrov (ivan.petrov@acme.example) and invite him to #design-onboarding', expect: 'hold', why: 'different Slack channel' },
    ],
  },

  // 8. ML fine-tuning
  {
    plan: {
      intent: 'Launch a 3-epoch fine-tuning job of llama-3-8b on a dataset using 4 A100 GPUs',
      examples: ['fine-tune on gs://acme-ml/datasets/support-v3.jsonl as support-ft-01', 'start training run legal-qa-v1'],
      inputs_schema: {
        type: 'object',
        properties: {
          dataset_uri: { type: 'string', examples: ['gs://acme-ml/datasets/support-v3.jsonl', 's3://acme-ml-data/legal/qa_v1.parquet'] },
          run_name: { type: 'string', examples: ['support-ft-01', 'legal-qa-v1'] },
        },
        required: ['dataset_uri', 'run_name'],
      },
      nodes: [
        { id: 'submit_job', params: { run_name: '{{inputs.run_name}}', dataset: '{{inputs.dataset_uri}}', base_model: 'llama-3-8b', epochs: 3 } },
        { id: 'allocate', params: { gpu_type: 'a100', gpu_count: 4 } },
      ],
    },
    tasks: [
      { task: 'fine-tune on gs://acme-ml/datasets/support-v4.jsonl, call the run support-ft-0615', expect: 'run', why: 'new inputs (dataset in a new path)' },
      { task: "Launch run 'legal-qa-v2' using dataset s3://acme-ml-data/legal/qa_v2.parquet — same llama-3-8b base, 3 epochs", expect: 'run', why: 'restates model and epochs' },
      { task: 'Start a fine-tuning job named churn-notes-01 on gs://acme-ml/datasets/churn_notes.jsonl. Use 4x A100 like last time.', expect: 'run', why: 'restates GPU type and count' },
      { task: 'kick off training: run_name=codegen-sft-7, data=gs://acme-ml/datasets/code_pairs_2024_06.jsonl (tracking ticket ML-882)', expect: 'run', why: 'ticket id incidental' },
      { task: "new finetune please — dataset gs://acme-ml/datasets/faq_v5.jsonl, name faq-v5-ft. I'll note the epochs in the experiment doc afterwards.", expect: 'run', why: 'epochs named in passing' },
      { task: "Fine-tune run 'summaries-0620' on gs://acme-ml/datasets/summaries.jsonl (requested by r.chen@acme.example, deadline 2024-06-21)", expect: 'run', why: 'requester e-mail and deadline incidental' },
      { task: 'fine-tune mistral-7b on gs://acme-ml/datasets/support-v4.jsonl, run name support-mistral-1', expect: 'hold', why: 'mistral-7b instead of llama-3-8b' },
      { task: 'Launch run legal-qa-v3 on s3://acme-ml-data/legal/qa_v3.parquet for 10 epochs', expect: 'hold', why: '10 epochs instead of 3' },
      { task: 'start fine-tuning run churn-h100 using gs://acme-ml/datasets/churn_notes.jsonl on H100s', expect: 'hold', why: 'H100 instead of A100' },
      { task: 'Train faq-v6-ft on gs://acme-ml/datasets/faq_v6.jsonl with 8 GPUs', expect: 'hold', why: '8 GPUs instead of 4' },
    ],
  },

  // 9. Blog publishing
  {
    plan: {
      intent: 'Publish a blog post draft publicly on the company blog in en-US under the engineering category',
      examples: ["publish scaling-postgres-2024 as 'How we scaled Postgres'", 'put the flaky-tests-hunt post live'],
      inputs_schema: {
        type: 'object',
        properties: {
          post_slug: { type: 'string', examples: ['scaling-postgres-2024', 'flaky-tests-hunt'] },
          title: { type: 'string', examples: ['How we scaled Postgres to 10TB', 'Hunting flaky tests'] },
        },
        required: ['post_slug', 'title'],
      },
      nodes: [
        { id: 'load_draft', params: { slug: '{{inputs.post_slug}}', cms_space: 'corporate-blog' } },
        { id: 'publish', params: { title: '{{inputs.title}}', category: 'engineering', locale: 'en-US', visibility: 'public' } },
      ],
    },
    tasks: [
      { task: "Publish the draft 'kafka-at-scale' titled 'Running Kafka at scale'", expect: 'run', why: 'new inputs only' },
      { task: 'publish post slug=flaky-tests-2, title "Hunting flaky tests, part 2" — engineering category, public, en-US', expect: 'run', why: 'restates category, visibility, locale' },
      { task: "Please go live with 'migrating-to-arm' (title: Migrating our fleet to ARM). Reviewed by editor@acme.example on 2024-06-12; PR https://github.com/acme/blog/pull/311.", expect: 'run', why: 'reviewer e-mail, date, PR link incidental' },
      { task: "publish draft incident-retro-may as 'What we learned from the May outage'. Update the category index page afterwards.", expect: 'run', why: 'category named in passing' },
      { task: "Put 'rust-at-acme' live, headline 'Why we adopted Rust', in English like always", expect: 'run', why: 'English restates en-US' },
      { task: "pls publish observability-stack — title 'Our observability stack, explained'", expect: 'run', why: 'new inputs only, terse' },
      { task: "Publish 'pricing-changes-2024' (title 'Our new pricing') under the product-news category", expect: 'hold', why: 'product-news instead of engineering' },
      { task: "publish flaky-tests-fr, title 'Chasse aux tests instables', in French (fr-FR)", expect: 'hold', why: 'fr-FR instead of en-US' },
      { task: "Publish the draft 'q3-roadmap' titled 'Q3 Roadmap', but as private so only staff can see it", expect: 'hold', why: 'private instead of public' },
      { task: "publish 'oncall-handbook' titled 'Our on-call handbook' in the engineering-handbook CMS space instead of the blog", expect: 'hold', why: 'different cms space' },
    ],
  },

  // 10. On-call paging
  {
    plan: {
      intent: 'Page the on-call engineer for a service with high urgency via the platform-primary escalation policy and post in #incidents',
      examples: ['page on-call for checkout-api: 5xx spike', 'wake up on-call for search-indexer'],
      inputs_schema: {
        type: 'object',
        properties: {
          service: { type: 'string', examples: ['checkout-api', 'search-indexer'] },
          message: { type: 'string', examples: ['5xx rate above 5%', 'queue lag over 30 minutes'] },
        },
        required: ['service', 'message'],
      },
      nodes: [
        { id: 'page', params: { service: '{{inputs.service}}', message: '{{inputs.message}}', urgency: 'high', escalation_policy: 'platform-primary' } },
        { id: 'post', params: { channel: '#incidents', text: 'Paged on-call for {{inputs.service}}: {{inputs.message}}' } },
      ],
    },
    tasks: [
      { task: 'page on-call for checkout-api: 5xx rate above 8% for 10 minutes', expect: 'run', why: 'new inputs; numbers are message content' },
      { task: 'Please page whoever is on call for search-indexer — queue lag at 45 min. High urgency, post to #incidents.', expect: 'run', why: 'restates urgency and channel' },
      { task: 'Wake up the on-call for auth-service: token refresh failing for all EU users since 02:40 UTC. Dashboard: https://grafana.acme.example/d/auth-overview', expect: 'run', why: 'dashboard link and time incidental' },
      { task: "page platform-primary for billing-worker, message 'DLQ growing, 12k msgs'", expect: 'run', why: 'restates escalation policy' },
      { task: 'Page on-call re: payments-gateway — card auths timing out. Customer report came in from ops-lead@bigcustomer.com.', expect: 'run', why: 'reporter e-mail incidental' },
      { task: 'need someone on notifications-svc asap, push delivery at 0 since 2024-06-16 01:00. review the escalation policy afterwards', expect: 'run', why: 'policy named in passing; date is context' },
      { task: 'page on-call for reporting-batch with low urgency: nightly job 30 min late', expect: 'hold', why: 'low urgency instead of high' },
      { task: 'Page the dba-primary escalation policy for orders-db: replication lag 20 min', expect: 'hold', why: 'dba-primary instead of platform-primary' },
      { task: 'page on-call for cdn-edge — cache hit ratio dropped — and post it in #sre-alerts', expect: 'hold', why: '#sre-alerts instead of #incidents' },
      { task: 'Page on-call for ledger-api via payments-secondary: p99 latency at 3s', expect: 'hold', why: 'payments-secondary policy instead of platform-primary' },
    ],
  },

  // 11. RDS snapshot
  {
    plan: {
      intent: 'Take an encrypted snapshot of an RDS database in eu-west-1 and retain it for 30 days',
      examples: ['snapshot orders-db-prod, label pre-migration', 'back up users-primary before the schema change'],
      inputs_schema: {
        type: 'object',
        properties: {
          db_instance: { type: 'string', examples: ['orders-db-prod', 'users-primary'] },
          label: { type: 'string', examples: ['pre-migration-0610', 'before-schema-v41'] },
        },
        required: ['db_instance', 'label'],
      },
      nodes: [
        { id: 'create_snapshot', params: { db_instance: '{{inputs.db_instance}}', snapshot_label: '{{inputs.label}}', region: 'eu-west-1', kms_key: 'alias/backup-key' } },
        { id: 'tag_retention', params: { retention_days: 30 } },
      ],
    },
    tasks: [
      { task: 'snapshot orders-db-prod, label pre-migration-0617', expect: 'run', why: 'new label only' },
      { task: 'Take a backup snapshot of users-primary named before-schema-v42, keep it 30 days in eu-west-1', expect: 'run', why: 'restates retention and region' },
      { task: "Please snapshot analytics-replica-2 with label 'q2-close'. Ticket OPS-5512, requested 2024-06-30 by finops@acme.example.", expect: 'run', why: 'ticket, date, e-mail incidental' },
      { task: 'snapshot db inventory-db (label: hotfix-1.4.2) in the Ireland region, standard retention', expect: 'run', why: 'Ireland is eu-west-1' },
      { task: "create rds snapshot for billing-db labelled 'pre-upgrade-pg16'. check the retention policy page afterwards.", expect: 'run', why: 'retention named in passing' },
      { task: "Backup sessions-db as 'weekly-2024-25', same KMS key as always", expect: 'run', why: 'filler about kms key' },
      { task: 'snapshot orders-db-prod with label pre-migration, region us-east-1', expect: 'hold', why: 'us-east-1 instead of eu-west-1' },
      { task: 'Take a snapshot of users-primary (label: audit-2024) and keep it for 365 days', expect: 'hold', why: '365 days instead of 30' },
      { task: "snapshot billing-db labelled 'pre-upgrade' encrypted with alias/finance-key", expect: 'hold', why: 'different kms key' },
      { task: "Snapshot inventory-db as 'dr-test' in Frankfurt", expect: 'hold', why: 'Frankfurt (eu-central-1) instead of eu-west-1' },
    ],
  },

  // 12. Incremental ETL sync
  {
    plan: {
      intent: 'Run an incremental sync of a source into the staging schema of bigquery-prod, retrying up to 3 times',
      examples: ['sync salesforce since 2024-06-01', 'incremental load of hubspot from last week'],
      inputs_schema: {
        type: 'object',
        properties: {
          source_name: { type: 'string', examples: ['salesforce', 'hubspot'] },
          since_date: { type: 'string', examples: ['2024-06-01', '2024-05-15'] },
        },
        required: ['source_name', 'since_date'],
      },
      nodes: [
        { id: 'extract', params: { source: '{{inputs.source_name}}', since: '{{inputs.since_date}}', mode: 'incremental' } },
        { id: 'load', params: { target_schema: 'staging', warehouse: 'bigquery-prod', max_retries: 3 } },
      ],
    },
    tasks: [
      { task: 'sync marketo since 2024-06-01', expect: 'run', why: 'new inputs only' },
      { task: 'Run an incremental load of hubspot from 2024-05-20 into staging', expect: 'run', why: 'restates mode and schema' },
      { task: 'Please sync the stripe source starting 2024-06-10; retry up to 3 times if it fails, as usual.', expect: 'run', why: 'restates max_retries' },
      { task: 'pull zendesk data since June 1st 2024 into bigquery-prod. Ops asked in https://acme.slack.com/archives/C01ABC/p1718000000', expect: 'run', why: 'restates warehouse; slack link incidental' },
      { task: "sync netsuite from 2024-04-01. I'll update the sync mode docs afterwards.", expect: 'run', why: 'mode named in passing' },
      { task: 'Load new rows from postgres_app since 2024-06-14 — delta only', expect: 'run', why: 'delta is incremental' },
      { task: 'Do a full refresh of salesforce since 2024-01-01', expect: 'hold', why: 'full refresh instead of incremental' },
      { task: 'sync hubspot since 2024-06-01 into the analytics_prod schema', expect: 'hold', why: 'analytics_prod instead of staging' },
      { task: 'Run the stripe sync from 2024-06-10 with max retries 5', expect: 'hold', why: '5 retries instead of 3' },
      { task: 'sync zendesk since 2024-06-01, loading into the snowflake-prod warehouse', expect: 'hold', why: 'snowflake-prod instead of bigquery-prod' },
    ],
  },

  // 13. Release pull request
  {
    plan: {
      intent: 'Open a release pull request from develop into main on acme/web-app and request review from the release team',
      examples: ['open the release PR for v4.11.0', 'release PR 4.11.1 with changelog'],
      inputs_schema: {
        type: 'object',
        properties: {
          version: { type: 'string', examples: ['v4.11.0', '4.11.1'] },
          changelog: { type: 'string', examples: ['new billing page; dark-mode fixes', 'hotfix: null check in cart'] },
        },
        required: ['version', 'changelog'],
      },
      nodes: [
        { id: 'open_pr', params: { repo: 'acme/web-app', base: 'main', head: 'develop', title: 'Release {{inputs.version}}', body: '{{inputs.changelog}}' } },
        { id: 'request_review', params: { team: 'acme/release-team' } },
      ],
    },
    tasks: [
      { task: 'Open the release PR for v4.12.0 — changelog: new billing page, fixed dark-mode contrast', expect: 'run', why: 'new inputs only' },
      { task: "release PR 4.12.1, notes: 'hotfix: null check in cart'. develop -> main on acme/web-app as usual", expect: 'run', why: 'restates branches and repo' },
      { task: "Please create the release pull request for version 2024.06.2 (full notes at https://notion.so/acme/changelog-2024-06-2); changelog: 'search filters, faster login'. I'm kim@acme.example if reviewers have questions.", expect: 'run', why: 'notion link and e-mail incidental' },
      { task: "open release pr v5.0.0-beta.1, changelog 'new nav, removed legacy IE code' and request review from the release team", expect: 'run', why: 'restates reviewers' },
      { task: 'Release PR for 4.13.0. Changes: SSO for teams, CSV import. Update the branch protection doc afterwards.', expect: 'run', why: 'branch named in passing; CSV is changelog content' },
      { task: 'cut the v4.12.2 release PR (changelog: bump deps; fixes CVE-2024-3094 exposure check)', expect: 'run', why: 'CVE id is changelog content' },
      { task: 'Open the release PR for v4.11.5 against the release/4.x branch; changelog: backports', expect: 'hold', why: 'base release/4.x instead of main' },
      { task: 'release PR v1.3.0 on acme/mobile-app, changelog: push notification fixes', expect: 'hold', why: 'acme/mobile-app instead of acme/web-app' },
      { task: "Open the 4.14.0 release PR from the staging branch into main, notes: 'perf work'", expect: 'hold', why: 'head staging instead of develop' },
      { task: 'release pr 4.12.3 (changelog: typo fixes), ask @acme/security-team to review', expect: 'hold', why: 'security-team instead of release-team' },
    ],
  },

  // 14. Monthly expense report
  {
    plan: {
      intent: 'Generate the monthly expense report for a department as a PDF in USD with the top 10 expenses and e-mail it to the controller',
      examples: ['expense report for Marketing, May 2024', 'monthly spend report for engineering 2024-05'],
      inputs_schema: {
        type: 'object',
        properties: {
          department: { type: 'string', examples: ['Marketing', 'Engineering'] },
          month: { type: 'string', examples: ['2024-05', '2024-06'] },
        },
        required: ['department', 'month'],
      },
      nodes: [
        { id: 'aggregate', params: { department: '{{inputs.department}}', month: '{{inputs.month}}', currency: 'USD', top_n: 10 } },
        { id: 'render', params: { format: 'pdf' } },
        { id: 'email', params: { to: 'controller@acme.example', subject: 'Expenses {{inputs.department}} {{inputs.month}}' } },
      ],
    },
    tasks: [
      { task: 'expense report for Facilities, May 2024', expect: 'run', why: 'new inputs only' },
      { task: 'Generate the monthly expense report for engineering for 2024-05 as a PDF in US dollars', expect: 'run', why: 'restates pdf and USD' },
      { task: 'Please do the June 2024 expenses report for Sales and send it to controller@acme.example. (Asked by vp-sales@acme.example.)', expect: 'run', why: 'restates recipient; requester e-mail incidental' },
      { task: 'Expense report: dept=Support, month=2024-04. Top 10 expenses as usual.', expect: 'run', why: 'restates top_n' },
      { task: "run the monthly spend report for the People team, 2024-06; I'll fix the currency conversion notes in the wiki afterwards", expect: 'run', why: 'currency named in passing' },
      { task: 'Could you produce the department expense summary for Legal covering March 2024? Budget ref FY24-LEG-007.', expect: 'run', why: 'paraphrase; budget ref incidental' },
      { task: 'expense report for Marketing, May 2024, as an Excel file', expect: 'hold', why: 'xlsx instead of pdf' },
      { task: 'Generate the 2024-05 engineering expense report in EUR', expect: 'hold', why: 'EUR instead of USD' },
      { task: 'June 2024 expense report for Sales — email it to cfo@acme.example', expect: 'hold', why: 'cfo@ instead of controller@' },
      { task: 'Expense report for Support, April 2024, top 25 expenses', expect: 'hold', why: 'top 25 instead of top 10' },
    ],
  },
];
