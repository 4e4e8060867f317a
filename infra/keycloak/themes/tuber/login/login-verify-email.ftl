<#-- Shown instead of a token while the e-mail is unverified (Keycloak's VERIFY_EMAIL required action):
     the spec's Email Not Verified view, with Keycloak's resend link and Back to Login to the shell. -->
<#import "template.ftl" as layout>
<#assign appUrl = ((client.baseUrl)!'')?remove_ending('/')>
<@layout.registrationLayout displayInfo=true; section>
    <#if section = "header">
        ${msg("emailVerifyTitle")}
    <#elseif section = "form">
        <div id="tuber-verify-notice">
            <p class="instruction"><strong>${msg("tuberVerifyBeforeLogin")}</strong></p>
            <p class="instruction">${msg("emailVerifyInstruction1", (user.email)!'')}</p>
        </div>
    <#elseif section = "info">
        <p class="instruction">
            ${msg("emailVerifyInstruction2")}
            <a id="tuber-resend" href="${url.loginAction}">${msg("doClickHere")}</a> ${msg("emailVerifyInstruction3")}
        </p>
        <p><a id="tuber-back-to-login" class="${properties.kcButtonClass!} ${properties.kcButtonDefaultClass!} ${properties.kcButtonBlockClass!}" href="${appUrl}/login">${msg("tuberBackToLogin")}</a></p>
    </#if>
</@layout.registrationLayout>
