CREATE TABLE "gpg_keys" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "gpg_keys_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"owner_id" bigint NOT NULL,
	"key_id" text NOT NULL,
	"primary_key_id" text DEFAULT '' NOT NULL,
	"content" text DEFAULT '' NOT NULL,
	"emails" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"can_sign" boolean NOT NULL,
	"can_encrypt_comms" boolean NOT NULL,
	"can_encrypt_storage" boolean NOT NULL,
	"can_certify" boolean NOT NULL,
	"verified" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone,
	"added_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "gpg_keys" ADD CONSTRAINT "gpg_keys_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "gpg_keys_key_id_key" ON "gpg_keys" USING btree ("key_id");--> statement-breakpoint
CREATE INDEX "gpg_keys_owner_idx" ON "gpg_keys" USING btree ("owner_id","primary_key_id","id");