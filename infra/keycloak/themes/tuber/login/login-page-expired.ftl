<#-- The login took too long or the page was reopened: start again, or carry on where it was. -->
<#import "template.ftl" as layout>
<@layout.registrationLayout; section>
    <#if section = "header">
        ${msg("pageExpiredTitle")}
    <#elseif section = "form">
        <div class="tuber-stack">
            <p id="instruction1" class="instruction">${msg("tuberPageExpiredMessage")}</p>
            <a id="loginContinueLink" class="${properties.kcButtonClass!} ${properties.kcButtonPrimaryClass!} ${properties.kcButtonBlockClass!}" href="${url.loginAction}">${msg("tuberPageExpiredContinue")}</a>
            <a id="loginRestartLink" class="${properties.kcButtonClass!} ${properties.kcButtonDefaultClass!} ${properties.kcButtonBlockClass!}" href="${url.loginRestartFlowUrl}">${msg("tuberPageExpiredRestart")}</a>
        </div>
    </#if>
</@layout.registrationLayout>
