{{/* Names, labels and the settings every CellCloud process shares. */}}

{{- define "cellcloud.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "cellcloud.labels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
{{- end -}}

{{/* Selector labels of one component: include "cellcloud.selector" (dict "ctx" . "component" "api") */}}
{{- define "cellcloud.selector" -}}
app.kubernetes.io/name: {{ .ctx.Chart.Name }}
app.kubernetes.io/instance: {{ .ctx.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{- define "cellcloud.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) -}}
{{- end -}}

{{- define "cellcloud.databaseSecret" -}}
{{- if .Values.database.existingSecret -}}
{{- .Values.database.existingSecret -}}
{{- else -}}
{{- printf "%s-database" (include "cellcloud.fullname" .) -}}
{{- end -}}
{{- end -}}

{{- define "cellcloud.storageSecret" -}}
{{- if .Values.storage.s3.existingSecret -}}
{{- .Values.storage.s3.existingSecret -}}
{{- else -}}
{{- printf "%s-storage" (include "cellcloud.fullname" .) -}}
{{- end -}}
{{- end -}}

{{/* The Secret holding METRICS_TOKEN: the user's, or the one the chart makes from metrics.token. */}}
{{- define "cellcloud.metricsSecret" -}}
{{- if .Values.metrics.existingSecret -}}
{{- .Values.metrics.existingSecret -}}
{{- else -}}
{{- printf "%s-metrics" (include "cellcloud.fullname" .) -}}
{{- end -}}
{{- end -}}

{{/* Environment of the API, the workers and the migration Job (README "Configuration"). */}}
{{- define "cellcloud.env" -}}
- name: DATABASE_URL
  valueFrom:
    secretKeyRef:
      name: {{ include "cellcloud.databaseSecret" . }}
      key: DATABASE_URL
{{- if .Values.storage.s3.bucket }}
- name: S3_BUCKET
  value: {{ .Values.storage.s3.bucket | quote }}
- name: S3_REGION
  value: {{ .Values.storage.s3.region | quote }}
{{- if .Values.storage.s3.endpoint }}
- name: S3_ENDPOINT
  value: {{ .Values.storage.s3.endpoint | quote }}
{{- end }}
- name: S3_FORCE_PATH_STYLE
  value: {{ .Values.storage.s3.forcePathStyle | quote }}
- name: S3_ACCESS_KEY_ID
  valueFrom:
    secretKeyRef:
      name: {{ include "cellcloud.storageSecret" . }}
      key: S3_ACCESS_KEY_ID
- name: S3_SECRET_ACCESS_KEY
  valueFrom:
    secretKeyRef:
      name: {{ include "cellcloud.storageSecret" . }}
      key: S3_SECRET_ACCESS_KEY
{{- end }}
{{- if .Values.publicBaseUrl }}
- name: PUBLIC_BASE_URL
  value: {{ .Values.publicBaseUrl | quote }}
{{- end }}
{{- if .Values.trustProxy }}
- name: TRUST_PROXY
  value: {{ .Values.trustProxy | quote }}
{{- end }}
{{- if or .Values.metrics.token .Values.metrics.existingSecret }}
- name: METRICS_TOKEN
  valueFrom:
    secretKeyRef:
      name: {{ include "cellcloud.metricsSecret" . }}
      key: METRICS_TOKEN
{{- end }}
{{- if .Values.tracing.otlpEndpoint }}
- name: OTEL_EXPORTER_OTLP_ENDPOINT
  value: {{ .Values.tracing.otlpEndpoint | quote }}
- name: OTEL_SERVICE_NAME
  value: {{ .Values.tracing.serviceName | quote }}
{{- end }}
- name: WORKER_CONCURRENCY
  value: {{ .Values.worker.concurrency | quote }}
- name: WORKER_MEMORY_MB
  value: {{ .Values.worker.memoryMb | quote }}
{{- range $name, $value := .Values.env }}
- name: {{ $name }}
  value: {{ $value | quote }}
{{- end }}
{{- end -}}

{{/* Volumes shared by every pod: /data (files without S3, temporary files), /tmp, /resources. */}}
{{- define "cellcloud.volumes" -}}
- name: data
{{- if and (not .Values.storage.s3.bucket) .Values.storage.existingClaim }}
  persistentVolumeClaim:
    claimName: {{ .Values.storage.existingClaim }}
{{- else }}
  emptyDir: {}
{{- end }}
- name: tmp
  emptyDir: {}
{{- if .Values.resources.existingClaim }}
- name: resources
  persistentVolumeClaim:
    claimName: {{ .Values.resources.existingClaim }}
    readOnly: true
{{- end }}
{{- end -}}

{{- define "cellcloud.volumeMounts" -}}
- name: data
  mountPath: /data
- name: tmp
  mountPath: /tmp
{{- if .Values.resources.existingClaim }}
- name: resources
  mountPath: /resources
  readOnly: true
{{- end }}
{{- end -}}

{{- define "cellcloud.podSecurityContext" -}}
runAsNonRoot: true
runAsUser: 10001
runAsGroup: 10001
fsGroup: 10001
seccompProfile:
  type: RuntimeDefault
{{- end -}}

{{- define "cellcloud.containerSecurityContext" -}}
allowPrivilegeEscalation: false
readOnlyRootFilesystem: true
capabilities:
  drop: ["ALL"]
{{- end -}}

{{/* Fails the render when neither S3 nor a shared volume is configured. */}}
{{- define "cellcloud.checkStorage" -}}
{{- if not (or .Values.storage.s3.bucket .Values.storage.existingClaim) -}}
{{- fail "storage.s3.bucket or storage.existingClaim (a ReadWriteMany volume) is required: the API and the workers must see the same files" -}}
{{- end -}}
{{- end -}}

{{/* Queue depth for KEDA: due jobs not yet started plus running jobs, all queues. */}}
{{- define "cellcloud.queueDepthQuery" -}}
SELECT count(*) FROM pgboss.job WHERE (state IN ('created', 'retry') AND start_after <= now() AND NOT blocked) OR state = 'active'
{{- end -}}
