CREATE TABLE "hook_attempts" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "hook_attempts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"delivery_id" bigint NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"duration_ms" integer NOT NULL,
	"url" text NOT NULL,
	"request_headers" jsonb NOT NULL,
	"response_status" integer,
	"response_headers" jsonb,
	"response_body" text,
	"error" text
);
--> statement-breakpoint
CREATE TABLE "hook_deliveries" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "hook_deliveries_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"hook_id" bigint NOT NULL,
	"event_id" bigint NOT NULL,
	"guid" text NOT NULL,
	"event" text NOT NULL,
	"event_type" text NOT NULL,
	"payload" text NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"due_at" timestamp with time zone DEFAULT now() NOT NULL,
	"lease_until" timestamp with time zone,
	"last_status" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "hooks" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "hooks_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"repo_id" bigint,
	"owner_id" bigint,
	"is_system" boolean DEFAULT false NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"type" text NOT NULL,
	"url" text NOT NULL,
	"content_type" text DEFAULT 'json' NOT NULL,
	"http_method" text DEFAULT 'POST' NOT NULL,
	"secret" text DEFAULT '' NOT NULL,
	"authorization_header" text DEFAULT '' NOT NULL,
	"branch_filter" text DEFAULT '' NOT NULL,
	"events" jsonb NOT NULL,
	"config" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"active" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "hook_attempts" ADD CONSTRAINT "hook_attempts_delivery_id_hook_deliveries_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."hook_deliveries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hook_deliveries" ADD CONSTRAINT "hook_deliveries_hook_id_hooks_id_fk" FOREIGN KEY ("hook_id") REFERENCES "public"."hooks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "hook_attempts_delivery_idx" ON "hook_attempts" USING btree ("delivery_id","id");--> statement-breakpoint
CREATE INDEX "hook_deliveries_due_idx" ON "hook_deliveries" USING btree ("state","due_at");--> statement-breakpoint
CREATE INDEX "hook_deliveries_hook_idx" ON "hook_deliveries" USING btree ("hook_id","id");--> statement-breakpoint
CREATE INDEX "hook_deliveries_created_idx" ON "hook_deliveries" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "hooks_repo_idx" ON "hooks" USING btree ("repo_id");--> statement-breakpoint
CREATE INDEX "hooks_owner_idx" ON "hooks" USING btree ("owner_id");