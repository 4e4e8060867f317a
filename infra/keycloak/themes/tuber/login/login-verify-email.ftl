<#-- Shown instead of a token while the e-mail is unverified (Keycloak's VERIFY_EMAIL required action): the
     spec's Email Not Verified view. "Resend verification" is the product's own (POST /api/auth/verification/resend
     through the gateway, with the auth service's per-address cooldown and the spec's toasts), done by
     resources/js/tuber.js; without script the same button falls back to Keycloak's resend. "Back to Login"
     goes to the product's /login, which opens the login page again. -->
<#import "template.ftl" as layout>
<#assign appUrl = ((client.baseUrl)!'')?remove_ending('/')>
<#-- Keycloak's own warning ("You need to verify your email address…") says what the notice below says. -->
<@layout.registrationLayout displayInfo=true displayMessage=!(message?has_content && message.type == 'warning'); section>
    <#if section = "header">
        ${msg("emailVerifyTitle")}
    <#elseif section = "form">
        <div id="tuber-verify-notice" class="tuber-notice">
            <p><strong>${msg("tuberVerifyBeforeLogin")}</strong></p>
            <p>${msg("tuberVerifySentTo")} <strong class="tuber-address">${(user.email)!''}</strong>. ${msg("tuberVerifyOpenIt")}</p>
        </div>
    <#elseif section = "info">
        <div class="tuber-stack">
            <p class="tuber-muted">${msg("emailVerifyInstruction2")}</p>
            <a id="tuber-resend" class="${properties.kcButtonClass!} ${properties.kcButtonDefaultClass!} ${properties.kcButtonBlockClass!}" href="${url.loginAction}"
               data-tuber-resend="${appUrl}/api/auth/verification/resend" data-email="${(user.email)!''}"
               data-sent="${msg("tuberResent")}" data-failed="${msg("tuberResendFailed")}" data-sending="${msg("tuberResending")}">${msg("tuberResend")}</a>
            <a id="tuber-back-to-login" class="${properties.kcButtonClass!} ${properties.kcButtonPrimaryClass!} ${properties.kcButtonBlockClass!}" href="${appUrl}/login">${msg("tuberBackToLogin")}</a>
        </div>
    </#if>
</@layout.registrationLayout>
