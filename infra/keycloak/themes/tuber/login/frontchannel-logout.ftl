<#-- Logging out of every application of the session (front-channel). Keycloak's version redirects with an
     inline script; here the Continue link carries data-tuber-auto-continue and tuber.js follows it once the
     page (and its logout frames) has loaded. -->
<#import "template.ftl" as layout>
<@layout.registrationLayout; section>
    <#if section = "header">
        ${msg("frontchannel-logout.title")}
    <#elseif section = "form">
        <div class="tuber-stack">
            <p>${msg("frontchannel-logout.message")}</p>
            <ul>
            <#list logout.clients as logoutClient>
                <li>
                    ${logoutClient.name}
                    <iframe class="tuber-hidden" title="${logoutClient.name}" src="${logoutClient.frontChannelLogoutUrl}"></iframe>
                </li>
            </#list>
            </ul>
            <#if logout.logoutRedirectUri?has_content>
                <a id="continue" class="${properties.kcButtonClass!} ${properties.kcButtonPrimaryClass!} ${properties.kcButtonBlockClass!}" href="${logout.logoutRedirectUri}" data-tuber-auto-continue>${msg("doContinue")}</a>
            </#if>
        </div>
    </#if>
</@layout.registrationLayout>
